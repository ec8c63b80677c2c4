#!/usr/bin/env python3
"""Recipe "distil" of the plankton backbone (issue 38; docs/recognition.md, "Backbone"): a large teacher network
trained at 96x96 on a GPU, distilled into small students at the server's 64x64 input, cheap enough for the ingest path.

Input (written by `npm run train:backbone -- --recipe distil --pack-only`): <data>/images.u8 (N x 64 x 64, the
server's net-input.ts), <data>/images96.u8 (N x 96 x 96, the same code at side 96) and <data>/meta.json.
Output in <out>: one backbone-<student>.onnx and student-<student>.pt per student (the same interface as train.py's
network: image + size in, embedding + class scores out), backbone.onnx (a copy of --keep's) and training.json (settings, the
epochs chosen, per-phase loss, and every network's balanced accuracy on the frozen held-out list).

Teacher: a ResNet (basic blocks, widths 64-128-256-512 by default) with the image's size beside the pooled features,
square-root class sampling with a logit-adjusted loss (so that argmax answers as if every class were equally common),
label smoothing, mixup on half the batches, turns, mirrors, zoom, shift, gain, gamma, blur, contrast and noise done on
the GPU, an exponential moving average of the weights. Students: train.py's network at two widths, trained together
on the same augmented batches to match the teacher's softened scores (temperature 2) and the labels.

Seeded. The epochs are either given or chosen from a timed calibration so that each phase fits its seconds
(--teacher-seconds, --student-seconds); training.json records the epochs, and passing them back reproduces the run
up to the GPU's floating-point order.
"""
import argparse
import copy
import gzip
import json
import os
import shutil
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import Backbone, Export  # noqa: E402  the students are train.py's network
from distil_parts import Ema, Teacher, augment, measure  # noqa: E402

STUDENTS = {'s': '16,24,48,96,160', 'm': '24,32,64,128,224'}


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--data', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--device', default='cuda')
    p.add_argument('--seed', type=int, default=42)
    p.add_argument('--teacher-widths', default='64,128,256,512')
    p.add_argument('--teacher-depth', type=int, default=2)
    p.add_argument('--teacher-epochs', type=int, default=0, help='0: as many as fit --teacher-seconds')
    p.add_argument('--student-epochs', type=int, default=0, help='0: as many as fit --student-seconds')
    p.add_argument('--teacher-seconds', type=float, default=270)
    p.add_argument('--student-seconds', type=float, default=150)
    p.add_argument('--batch', type=int, default=256)
    p.add_argument('--lr', type=float, default=2e-3)
    p.add_argument('--students', default='s,m', help='which of ' + ', '.join(f'{k} ({v})' for k, v in STUDENTS.items()))
    p.add_argument('--keep', default='', help='the student copied to backbone.onnx')
    p.add_argument('--max-steps', type=int, default=0, help='smoke runs: stop each phase after this many steps')
    p.add_argument('--held-out-digest', default='')
    a = p.parse_args()

    dev = torch.device(a.device)
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    if dev.type == 'cuda':
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    meta = json.load(open(os.path.join(a.data, 'meta.json')))
    n, side = len(meta['samples']), meta['side']
    classes = len(meta['classes'])
    big = meta.get('teacher_side', 96)

    def load(name, s):
        # images.u8, or images.u8.gz (gzip shrinks the mostly black squares six-fold: what travels to a GPU machine).
        f = os.path.join(a.data, name)
        raw = np.fromfile(f, dtype=np.uint8) if os.path.exists(f) else np.frombuffer(gzip.open(f + '.gz').read(), dtype=np.uint8)
        return torch.from_numpy(raw.reshape(n, 1, s, s).copy()).to(dev)

    img64, img96 = load('images.u8', side), load(f'images{big}.u8', big)
    sizes = torch.tensor([s['size'] for s in meta['samples']], dtype=torch.float32, device=dev)
    labels = torch.tensor([s['label'] for s in meta['samples']], dtype=torch.long, device=dev)
    split = [s['split'] for s in meta['samples']]
    pick = lambda name: torch.tensor([i for i in range(n) if split[i] == name], dtype=torch.long, device=dev)
    train, natural, held = pick('train'), pick('test'), pick('held')
    counts = torch.bincount(labels[train], minlength=classes).float()
    per_image = (counts[labels[train]].clamp(min=1) ** -0.5).cpu()
    prior = counts.clamp(min=1) ** 0.5
    log_prior = torch.log(prior / prior.sum())
    cpu_gen = torch.Generator().manual_seed(a.seed)
    gen = torch.Generator(device=dev).manual_seed(a.seed)
    ce = nn.CrossEntropyLoss(label_smoothing=0.1)
    steps_per_epoch = max(1, len(train) // a.batch)
    amp = dict(device_type=dev.type, dtype=torch.bfloat16, enabled=dev.type == 'cuda')
    fmt = torch.channels_last if dev.type == 'cuda' else torch.contiguous_format
    log = {'settings': vars(a), 'recipe': 'distil', 'classes': meta['classes'], 'train_count': len(train),
           'held_out_count': len(natural), 'balanced_held_out_count': len(held), 'held_out_digest': a.held_out_digest,
           'device': torch.cuda.get_device_name(0) if dev.type == 'cuda' else 'cpu', 'phases': {}}
    started = time.time()

    def batches(epochs):
        """Square-root class sampling, one epoch = as many draws as training images; mixup on half the batches."""
        for _ in range(epochs):
            order = train[torch.multinomial(per_image, len(train), replacement=True, generator=cpu_gen).to(dev)]
            for b in range(steps_per_epoch):
                idx = order[b * a.batch:(b + 1) * a.batch]
                (x64, x96), s = augment([img64[idx].float() / 255, img96[idx].float() / 255], sizes[idx], gen)
                y = labels[idx]
                lam, perm = 1.0, None
                if torch.rand(1, generator=cpu_gen).item() < 0.5:
                    lam = float(np.random.beta(0.4, 0.4))
                    perm = torch.randperm(len(idx), generator=cpu_gen).to(dev)
                    x64, x96, s = (lam * v + (1 - lam) * v[perm] for v in (x64, x96, s))
                yield x64.contiguous(memory_format=fmt), x96.contiguous(memory_format=fmt), s, y, lam, perm

    def label_loss(logits, y, lam, perm):
        out = logits.float() + log_prior
        return ce(out, y) if perm is None else lam * ce(out, y) + (1 - lam) * ce(out, y[perm])

    def calibrate(step_fn, budget, fixed):
        """Epochs that fit `budget` seconds, from the time of 12 steps after 4 warm-up steps (on throw-away weights)."""
        if fixed or a.max_steps:
            return reseed(fixed or 1)
        t0 = None
        for k, batch in enumerate(batches(1)):
            if k == 4:
                if dev.type == 'cuda':
                    torch.cuda.synchronize()
                t0 = time.time()
            step_fn(batch)
            if k == 15:
                break
        if dev.type == 'cuda':
            torch.cuda.synchronize()
        per_step = (time.time() - t0) / 12
        return reseed(max(1, int(budget / (per_step * steps_per_epoch))))

    def reseed(result):
        # The same random stream whether the epochs were calibrated or given, so that giving them reproduces the run.
        torch.manual_seed(a.seed)
        np.random.seed(a.seed)
        cpu_gen.manual_seed(a.seed)
        gen.manual_seed(a.seed)
        return result

    # --- Phase 1: the teacher at 96x96.
    tw = [int(w) for w in a.teacher_widths.split(',')]

    def new_teacher():
        net = Teacher(tw, a.teacher_depth, classes).to(dev).to(memory_format=fmt)
        opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=0.05)
        return net, opt

    def teacher_step(net, opt, batch):
        _, x96, s, y, lam, perm = batch
        with torch.autocast(**amp):
            loss = label_loss(net(x96, s), y, lam, perm)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss

    scratch = new_teacher()
    t_epochs = calibrate(lambda b: teacher_step(*scratch, b), a.teacher_seconds, a.teacher_epochs)
    del scratch
    teacher, opt = new_teacher()
    total = t_epochs * steps_per_epoch if not a.max_steps else a.max_steps
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=total, pct_start=0.1)
    ema = Ema(teacher)
    print(json.dumps({'phase': 'teacher', 'epochs': t_epochs, 'steps': total,
                      'parameters': sum(p.numel() for p in teacher.parameters())}), flush=True)
    phase = {'epochs': t_epochs, 'parameters': sum(p.numel() for p in teacher.parameters()), 'log': []}
    t_start, step, run = time.time(), 0, 0.0
    for batch in batches(t_epochs):
        teacher.train()
        loss = teacher_step(teacher, opt, batch)
        sched.step()
        ema.update(step)
        step += 1
        if step % 25 == 0:
            run = loss.item()
        if step % (steps_per_epoch * max(1, t_epochs // 6)) == 0 or step == total:
            entry = {'step': step, 'epoch': round(step / steps_per_epoch, 1), 'loss': round(run, 4),
                     'seconds': round(time.time() - t_start, 1),
                     'held': measure(ema.net, img96, sizes, labels, held, classes, 1)}
            phase['log'].append(entry)
            print(json.dumps({'teacher': entry}), flush=True)
        if step >= total:
            break
    teacher = ema.net.eval()
    phase['seconds'] = round(time.time() - t_start, 1)
    phase['held_8_views'] = measure(teacher, img96, sizes, labels, held, classes, 8)
    phase['natural_8_views'] = measure(teacher, img96, sizes, labels, natural, classes, 8)
    log['phases']['teacher'] = phase
    print(json.dumps({'teacher_final': phase['held_8_views'], 'natural': phase['natural_8_views']}), flush=True)
    os.makedirs(a.out, exist_ok=True)

    # --- Phase 2: the students at 64x64, on the teacher's softened scores (temperature 2) and the labels.
    names = [k for k in a.students.split(',') if k]
    students = {}
    for k in names:
        torch.manual_seed(a.seed + 1)
        net = Backbone([int(w) for w in STUDENTS[k].split(',')], 128, classes).to(dev).to(memory_format=fmt)
        students[k] = [net, torch.optim.AdamW(net.parameters(), lr=a.lr * 1.5, weight_decay=0.01)]
    T = 2.0

    def student_step(batch, nets=None):
        x64, x96, s, y, lam, perm = batch
        with torch.no_grad(), torch.autocast(**amp):
            soft = F.softmax(teacher(x96, s).float() / T, dim=1)
        losses = []
        for net, opt in (nets or students.values()):
            net.train()
            with torch.autocast(**amp):
                logits = net(x64, s).float()
            kd = F.kl_div(F.log_softmax(logits / T, dim=1), soft, reduction='batchmean') * T * T
            loss = 0.7 * kd + 0.3 * label_loss(logits, y, lam, perm)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            losses.append(loss)
        return losses

    scratch = {k: [copy.deepcopy(v[0]), None] for k, v in students.items()}
    for v in scratch.values():
        v[1] = torch.optim.AdamW(v[0].parameters(), lr=1e-4)
    s_epochs = calibrate(lambda b: student_step(b, list(scratch.values())), a.student_seconds, a.student_epochs)
    del scratch
    total = s_epochs * steps_per_epoch if not a.max_steps else a.max_steps
    scheds = {k: torch.optim.lr_scheduler.OneCycleLR(v[1], max_lr=a.lr * 1.5, total_steps=total, pct_start=0.1)
              for k, v in students.items()}
    emas = {k: Ema(v[0]) for k, v in students.items()}
    print(json.dumps({'phase': 'students', 'epochs': s_epochs, 'steps': total}), flush=True)
    s_start, step = time.time(), 0
    slog = []
    for batch in batches(s_epochs):
        losses = student_step(batch)
        for k in names:
            scheds[k].step()
            emas[k].update(step)
        step += 1
        if step % (steps_per_epoch * max(1, s_epochs // 4)) == 0 or step == total:
            entry = {'step': step, 'loss': [round(l.item(), 4) for l in losses], 'seconds': round(time.time() - s_start, 1),
                     'held': {k: measure(emas[k].net, img64, sizes, labels, held, classes, 1) for k in names}}
            slog.append(entry)
            print(json.dumps({'students': entry}), flush=True)
        if step >= total:
            break
    log['phases']['students'] = {'epochs': s_epochs, 'seconds': round(time.time() - s_start, 1), 'log': slog,
                                 'temperature': T, 'kd_weight': 0.7}
    for k in names:
        net = emas[k].net.float().eval()
        log['phases'][f'student_{k}'] = {
            'widths': STUDENTS[k], 'parameters': sum(p.numel() for p in net.parameters()),
            'held_1_view': measure(net, img64, sizes, labels, held, classes, 1),
            'held_8_views': measure(net, img64, sizes, labels, held, classes, 8),
            'natural_1_view': measure(net, img64, sizes, labels, natural, classes, 1),
        }
        print(json.dumps({f'student_{k}': log['phases'][f'student_{k}']}), flush=True)
        net = net.to('cpu').to(memory_format=torch.contiguous_format)
        torch.save(net.state_dict(), os.path.join(a.out, f'student-{k}.pt'))
        try:
            export(net, side, os.path.join(a.out, f'backbone-{k}.onnx'))
        except Exception as err:  # the .pt is kept: export it elsewhere with train.py's exporter
            print(f'ONNX export of student {k} failed: {err}', flush=True)
    if a.keep:
        shutil.copyfile(os.path.join(a.out, f'backbone-{a.keep}.onnx'), os.path.join(a.out, 'backbone.onnx'))
        log['kept'] = a.keep
    log['train_seconds'] = round(time.time() - started, 1)
    log['wall_seconds'] = log['train_seconds']
    # The summary train-backbone.ts's model card reads: the kept student, one view.
    kept = log['phases'][f'student_{a.keep or names[0]}']
    log['epochs'] = [{'epoch': s_epochs, 'loss': slog[-1]['loss'][0] if slog else 0,
                      'balanced_set_balanced': (kept['held_1_view'] or {}).get('balanced'),
                      'balanced_set_top1': (kept['held_1_view'] or {}).get('top1'),
                      'held_out_top1': (kept['natural_1_view'] or {}).get('top1')}]
    json.dump(log, open(os.path.join(a.out, 'training.json'), 'w'), indent=1)
    print(json.dumps({'done_seconds': log['train_seconds']}), flush=True)


def export(net, side, file):
    model = Export(net).eval()
    dummy = (torch.zeros(2, 1, side, side), torch.zeros(2, 2))
    kw = dict(input_names=['image', 'size'], output_names=['embedding', 'scores'],
              dynamic_axes={'image': {0: 'n'}, 'size': {0: 'n'}, 'embedding': {0: 'n'}, 'scores': {0: 'n'}},
              opset_version=13, do_constant_folding=True)
    try:
        torch.onnx.export(model, dummy, file, dynamo=False, **kw)
    except TypeError:  # torch before the dynamo exporter
        torch.onnx.export(model, dummy, file, **kw)


if __name__ == '__main__':
    main()
