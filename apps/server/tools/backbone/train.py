#!/usr/bin/env python3
"""Trains the plankton backbone (docs/recognition.md, "Backbone") on the images `npm run train:backbone` prepared.

Input: <data>/images.u8 (N x SIDE x SIDE grey levels, written by the server's own net-input.ts) and <data>/meta.json
(classes, per-sample label, size features, split). Output: <out>/backbone.onnx (image + size in, embedding out) and
<out>/training.json (settings, per-epoch loss, held-out accuracy of the network's own head, time).

Seeded and single-process: the same data, seed and thread count give the same weights.
"""
import argparse
import json
import math
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Block(nn.Module):
    """A residual block: two 3x3 convolutions, the first one strided, with a 1x1 projection on the shortcut."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.a = conv_bn(cin, cout, stride)
        self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        return F.relu(self.b(self.a(x)) + self.short(x))


class Backbone(nn.Module):
    def __init__(self, widths, embed_dim, classes):
        super().__init__()
        layers = [conv_bn(1, widths[0])]
        for cin, cout in zip(widths[:-1], widths[1:]):
            layers.append(Block(cin, cout, 2))
        self.trunk = nn.Sequential(*layers)
        self.size = nn.Sequential(nn.Linear(2, 16), nn.ReLU(inplace=True))
        self.embed = nn.Sequential(nn.Linear(widths[-1] + 16, embed_dim), nn.BatchNorm1d(embed_dim), nn.ReLU(inplace=True))
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(embed_dim, classes)

    def embedding(self, image, size):
        x = self.trunk(image)
        x = x.mean(dim=(2, 3))
        # Size features centred on the PWSSC images' typical ln(px) so that the small MLP starts in range.
        return self.embed(torch.cat([x, self.size(size - 4.5)], dim=1))

    def forward(self, image, size):
        return self.head(self.drop(self.embedding(image, size)))


class Export(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, image, size):
        e = self.net.embedding(image, size)
        # The network's own class scores beside the embedding: a team with few examples can lean on what the network
        # learnt from every PWSSC image (docs/recognition.md, "Backbone").
        return e, F.softmax(self.net.head(e), dim=1)


def augment(x, size, gen, strong=False):
    """Plankton have no up or down: any rotation, a mirror, a little zoom and shift; dark-field gain and gamma vary."""
    n = x.shape[0]
    angle = torch.rand(n, generator=gen) * 2 * math.pi
    zoom = torch.exp((torch.rand(n, generator=gen) - 0.5) * 0.3)
    flip = torch.where(torch.rand(n, generator=gen) < 0.5, -1.0, 1.0)
    shift = (torch.rand(n, 2, generator=gen) - 0.5) * 0.1
    cos, sin = torch.cos(angle) / zoom, torch.sin(angle) / zoom
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = cos * flip
    theta[:, 0, 1] = -sin
    theta[:, 1, 0] = sin * flip
    theta[:, 1, 1] = cos
    theta[:, :, 2] = shift
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode='bilinear', padding_mode='zeros', align_corners=False)
    gamma = torch.exp((torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.7)
    gain = 0.75 + 0.35 * torch.rand(n, 1, 1, 1, generator=gen)
    x = (x.clamp(0, 1) ** gamma * gain).clamp(0, 1)
    if strong:
        # Focus varies through the imaged volume: a 3x3 blur of random strength on half the images.
        blur = (torch.rand(n, 1, 1, 1, generator=gen) < 0.5).float() * torch.rand(n, 1, 1, 1, generator=gen) * 0.6
        kernel = torch.tensor([[1., 2., 1.], [2., 4., 2.], [1., 2., 1.]]).view(1, 1, 3, 3) / 16
        x = (1 - blur) * x + blur * F.conv2d(x, kernel, padding=1)
        # Contrast around the object's mean, and a little sensor noise.
        contrast = torch.exp((torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.5)
        m = x.mean(dim=(2, 3), keepdim=True)
        x = ((x - m) * contrast + m + torch.randn(x.shape, generator=gen) * 0.01 * (x > 0)).clamp(0, 1)
    size = size + (torch.rand(n, 2, generator=gen) - 0.5) * 0.1
    return x, size


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--data', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--epochs', type=int, default=30)
    p.add_argument('--batch', type=int, default=128)
    p.add_argument('--lr', type=float, default=3e-3)
    p.add_argument('--seed', type=int, default=42)
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--widths', default='16,24,48,96,160')
    p.add_argument('--embed', type=int, default=128)
    p.add_argument('--max-steps', type=int, default=0, help='stop after this many steps (smoke runs)')
    p.add_argument('--recipe', default='v1', help='v1: the first backbone; v2: class-balanced sampling, logit-adjusted loss, mixup, blur and contrast')
    p.add_argument('--device', default='cpu')
    p.add_argument('--held-out-digest', default='', help='the frozen held-out list never trained on (recorded)')
    a = p.parse_args()

    torch.set_num_threads(a.threads)
    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    torch.use_deterministic_algorithms(True)
    gen = torch.Generator().manual_seed(a.seed)

    meta = json.load(open(os.path.join(a.data, 'meta.json')))
    side = meta['side']
    n = len(meta['samples'])
    images = torch.from_numpy(np.fromfile(os.path.join(a.data, 'images.u8'), dtype=np.uint8).reshape(n, 1, side, side).copy())
    sizes = torch.tensor([s['size'] for s in meta['samples']], dtype=torch.float32)
    labels = torch.tensor([s['label'] for s in meta['samples']], dtype=torch.long)
    split = [s['split'] for s in meta['samples']]
    train = torch.tensor([i for i in range(n) if split[i] == 'train'])
    held = torch.tensor([i for i in range(n) if split[i] == 'test'], dtype=torch.long)
    balanced_held = torch.tensor([i for i in range(n) if split[i] == 'held'], dtype=torch.long)
    classes = meta['classes']
    device = torch.device(a.device)

    counts = torch.bincount(labels[train], minlength=len(classes)).float()
    # Inverse square-root frequency: rare classes matter without letting 4 Bolinopsis outweigh 3,000 Blobs.
    weight = torch.where(counts > 0, counts.clamp(min=1) ** -0.5, torch.zeros_like(counts))
    weight = weight / (weight[labels[train]].mean())

    widths = [int(w) for w in a.widths.split(',')]
    net = Backbone(widths, a.embed, len(classes))
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=5e-4)
    steps_per_epoch = max(1, math.ceil(len(train) / a.batch))
    total = steps_per_epoch * a.epochs if a.max_steps == 0 else min(a.max_steps, steps_per_epoch * a.epochs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=total, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(weight=weight, label_smoothing=0.1)
    v2 = a.recipe == 'v2'
    if v2:
        # Square-root class sampling: every class is seen often without showing a rare one's few images hundreds of
        # times an epoch. The loss adds the log of that sampling prior to the logits (logit adjustment, Menon et al.
        # 2021), so the head's own scores are free of it: argmax answers as if every class were equally common.
        per_image = counts[labels[train]].clamp(min=1) ** -0.5
        prior = counts.clamp(min=1) ** 0.5
        prior = prior / prior.sum()
        log_prior = torch.log(prior).to(device)
        loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    net.to(device)
    ema = {k: v.detach().clone() for k, v in net.state_dict().items()}

    log = {'settings': vars(a), 'classes': classes, 'train_count': len(train), 'held_out_count': len(held),
           'balanced_held_out_count': len(balanced_held), 'held_out_digest': a.held_out_digest, 'epochs': []}
    started = time.time()
    step = 0
    for epoch in range(a.epochs):
        net.train()
        if v2:
            order = train[torch.multinomial(per_image, len(train), replacement=True, generator=gen)]
        else:
            order = train[torch.randperm(len(train), generator=gen)]
        total_loss, seen = 0.0, 0
        for b in range(0, len(order), a.batch):
            if step >= total:
                break
            idx = order[b:b + a.batch]
            if len(idx) < 2:
                continue
            x, s = augment(images[idx].float() / 255, sizes[idx], gen, strong=v2)
            y = labels[idx]
            if v2:
                x, s, y = x.to(device), s.to(device), y.to(device)
                # Mixup on half the batches (Zhang et al. 2018), mixing images, sizes and labels alike.
                if torch.rand(1, generator=gen).item() < 0.5:
                    lam = float(np.random.beta(0.4, 0.4))
                    perm = torch.randperm(len(idx), generator=gen).to(device)
                    x, s = lam * x + (1 - lam) * x[perm], lam * s + (1 - lam) * s[perm]
                    out = net(x, s) + log_prior
                    loss = lam * loss_fn(out, y) + (1 - lam) * loss_fn(out, y[perm])
                else:
                    loss = loss_fn(net(x, s) + log_prior, y)
            else:
                loss = loss_fn(net(x, s), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            if v2:
                # An exponential moving average of the weights (and batch-norm statistics) is what gets exported.
                with torch.no_grad():
                    decay = min(0.998, (1 + step) / (10 + step))
                    for k, v in net.state_dict().items():
                        if v.dtype.is_floating_point:
                            ema[k].mul_(decay).add_(v.detach(), alpha=1 - decay)
                        else:
                            ema[k].copy_(v)
            step += 1
            total_loss += loss.item() * len(idx)
            seen += len(idx)
        entry = {'epoch': epoch + 1, 'loss': total_loss / max(1, seen), 'seconds': round(time.time() - started, 1)}
        if len(held) + len(balanced_held) > 0 and (epoch + 1 == a.epochs or (epoch + 1) % 5 == 0 or step >= total):
            scored = net
            if v2:
                scored = Backbone(widths, a.embed, len(classes)).to(device)
                scored.load_state_dict(ema)
            if len(held) > 0:
                entry['held_out_top1'], entry['held_out_balanced'] = evaluate(scored, images, sizes, labels, held, len(classes), device)
            if len(balanced_held) > 0:
                entry['balanced_set_top1'], entry['balanced_set_balanced'] = evaluate(scored, images, sizes, labels, balanced_held, len(classes), device)
        log['epochs'].append(entry)
        print(json.dumps(entry), flush=True)
        if step >= total:
            break
    log['train_seconds'] = round(time.time() - started, 1)

    os.makedirs(a.out, exist_ok=True)
    if v2:
        net.load_state_dict(ema)
    net = net.to('cpu')
    net.eval()
    export = Export(net).eval()
    dummy = (torch.zeros(2, 1, side, side), torch.zeros(2, 2))
    torch.onnx.export(export, dummy, os.path.join(a.out, 'backbone.onnx'), input_names=['image', 'size'],
                      output_names=['embedding', 'scores'],
                      dynamic_axes={'image': {0: 'n'}, 'size': {0: 'n'}, 'embedding': {0: 'n'}, 'scores': {0: 'n'}},
                      opset_version=13, do_constant_folding=True)
    # The network's own head, for the model card: the per-team heads are trained by the server.
    json.dump(log, open(os.path.join(a.out, 'training.json'), 'w'), indent=1)


def evaluate(net, images, sizes, labels, idx, classes, device='cpu'):
    """Top-1 and balanced accuracy (mean recall) of the network's own head on held-out images, its probabilities
    averaged over the eight turns and mirrors."""
    net.eval()
    right = 0
    hits = torch.zeros(classes)
    support = torch.zeros(classes)
    with torch.no_grad():
        for b in range(0, len(idx), 256):
            j = idx[b:b + 256]
            x = (images[j].float() / 255).to(device)
            size = sizes[j].to(device)
            logits = 0
            for t in range(8):
                y = x.transpose(2, 3) if t & 4 else x
                if t & 1:
                    y = y.flip(3)
                if t & 2:
                    y = y.flip(2)
                logits = logits + F.softmax(net(y, size), dim=1)
            ok = (logits.argmax(1).cpu() == labels[j]).float()
            right += ok.sum().item()
            hits.index_add_(0, labels[j], ok)
            support.index_add_(0, labels[j], torch.ones(len(j)))
    net.train()
    present = support > 0
    return right / len(idx), (hits[present] / support[present]).mean().item()


if __name__ == '__main__':
    main()
