"""The distilled recipe's pieces (distil.py): the teacher network, augmentation on the GPU, the weight average and
held-out scoring."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Basic(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.b2(self.c2(F.relu(self.b1(self.c1(x)), inplace=True)))
        return F.relu(y + (x if self.short is None else self.short(x)), inplace=True)


class Teacher(nn.Module):
    """ResNet-18-like: a 3x3 stem at stride 2, four stages of `depth` basic blocks (the first of each after the first
    strided), global average pooling, the size features beside it, an embedding and a linear head."""

    def __init__(self, widths, depth, classes, embed=256):
        super().__init__()
        w0 = widths[0]
        self.stem = nn.Sequential(nn.Conv2d(1, w0, 3, 2, 1, bias=False), nn.BatchNorm2d(w0), nn.ReLU(inplace=True))
        blocks, cin = [], w0
        for i, w in enumerate(widths):
            for d in range(depth):
                blocks.append(Basic(cin, w, 2 if (d == 0 and i > 0) else 1))
                cin = w
        self.trunk = nn.Sequential(*blocks)
        self.size = nn.Sequential(nn.Linear(2, 32), nn.ReLU(inplace=True))
        self.embed = nn.Sequential(nn.Linear(cin + 32, embed), nn.BatchNorm1d(embed), nn.ReLU(inplace=True))
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(embed, classes)

    def forward(self, image, size):
        x = self.trunk(self.stem(image)).mean(dim=(2, 3))
        return self.head(self.drop(self.embed(torch.cat([x, self.size(size - 4.5)], dim=1))))


def augment(views, size, gen):
    """One random transform applied alike to the same images at several resolutions (affine grids are in
    normalised coordinates): any turn, a mirror, zoom, shift, gamma and gain, blur, contrast and sensor noise."""
    n, dev = size.shape[0], size.device

    def rnd(*shape):
        return torch.rand(*shape, generator=gen, device=dev)

    angle = rnd(n) * 2 * math.pi
    zoom = torch.exp((rnd(n) - 0.5) * 0.4)
    flip = torch.where(rnd(n) < 0.5, -1.0, 1.0)
    shift = (rnd(n, 2) - 0.5) * 0.12
    cos, sin = torch.cos(angle) / zoom, torch.sin(angle) / zoom
    theta = torch.zeros(n, 2, 3, device=dev)
    theta[:, 0, 0] = cos * flip
    theta[:, 0, 1] = -sin
    theta[:, 1, 0] = sin * flip
    theta[:, 1, 1] = cos
    theta[:, :, 2] = shift
    gamma = torch.exp((rnd(n, 1, 1, 1) - 0.5) * 0.7)
    gain = 0.75 + 0.35 * rnd(n, 1, 1, 1)
    blur = (rnd(n, 1, 1, 1) < 0.5).float() * rnd(n, 1, 1, 1) * 0.6
    contrast = torch.exp((rnd(n, 1, 1, 1) - 0.5) * 0.5)
    kernel = torch.tensor([[1., 2., 1.], [2., 4., 2.], [1., 2., 1.]], device=dev).view(1, 1, 3, 3) / 16
    out = []
    for x in views:
        noise = torch.randn(x.shape, generator=gen, device=dev) * 0.01
        grid = F.affine_grid(theta, list(x.shape), align_corners=False)
        x = F.grid_sample(x, grid, mode='bilinear', padding_mode='zeros', align_corners=False)
        x = (x.clamp(0, 1) ** gamma * gain).clamp(0, 1)
        x = (1 - blur) * x + blur * F.conv2d(x, kernel, padding=1)
        m = x.mean(dim=(2, 3), keepdim=True)
        out.append(((x - m) * contrast + m + noise * (x > 0)).clamp(0, 1))
    return out, size + (rnd(n, 2) - 0.5) * 0.1


class Ema:
    """An exponential moving average of the weights and batch-norm statistics: what gets measured and exported."""

    def __init__(self, net):
        self.net = copy.deepcopy(net).eval()
        for p in self.net.parameters():
            p.requires_grad_(False)
        pairs = list(zip(self.net.state_dict().values(), net.state_dict().values()))
        self.floats = ([e for e, v in pairs if v.dtype.is_floating_point], [v for e, v in pairs if v.dtype.is_floating_point])
        self.others = [(e, v) for e, v in pairs if not v.dtype.is_floating_point]

    @torch.no_grad()
    def update(self, step, cap=0.999):
        decay = min(cap, (1 + step) / (10 + step))
        mine, theirs = self.floats
        torch._foreach_mul_(mine, decay)
        torch._foreach_add_(mine, theirs, alpha=1 - decay)
        for e, v in self.others:
            e.copy_(v)


@torch.no_grad()
def scores(net, images, sizes, idx, views):
    """The network's class probabilities for images idx, averaged over `views` of the eight turns and mirrors."""
    net.eval()
    out = []
    for b in range(0, len(idx), 512):
        j = idx[b:b + 512]
        x = images[j].float() / 255
        s = sizes[j]
        p = 0
        for t in range(views):
            y = x.transpose(2, 3) if t & 4 else x
            if t & 1:
                y = y.flip(3)
            if t & 2:
                y = y.flip(2)
            with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=x.device.type == 'cuda'):
                p = p + F.softmax(net(y, s).float(), dim=1)
        out.append(p / views)
    return torch.cat(out)


def measure(net, images, sizes, labels, idx, classes, views):
    if len(idx) == 0:
        return None
    pred = scores(net, images, sizes, idx, views).argmax(1)
    y = labels[idx]
    ok = (pred == y).float()
    hits = torch.zeros(classes, device=ok.device).index_add_(0, y, ok)
    support = torch.zeros(classes, device=ok.device).index_add_(0, y, torch.ones_like(ok))
    present = support > 0
    return {'top1': round(ok.mean().item(), 4), 'balanced': round((hits[present] / support[present]).mean().item(), 4)}
