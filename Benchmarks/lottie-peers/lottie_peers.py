#!/usr/bin/env python3
"""Frame time per Lottie animation: the real player against ThorVG and rlottie, the same frames, one run.

For every case of the corpus (../shared/lottie/cases.json) in turn: ThorVG renders the frames, then the
player (`live-player play FILE --headless --no-overlay --size WxH --fps F --frames N --stats S`, F the
file's frame rate rounded, so a tick is one composition frame), then rlottie. Each renders the same
frame sequence, frame k = (k * fr / F) mod (op - ip), looping, into a WxH buffer with the composition
fitted and centred. A frame's time is what it costs to bring the picture to that frame and draw it:
ours is the stats file's totalMs (animate + draw + composite); ThorVG's is set_frame + update + draw +
sync (one thread, `Engine(threads=0)`); rlottie's is one `lottie_animation_render` call into a buffer
kept across frames. Load time (decode and build, before the first frame) is left out of all three;
ours is shown as `startup` (the process's wall time minus its frames) for reference.

Prints one line per file, the corpus summary (medians over files of each file's p50 and p99, and
ratios), and the files where ours is slowest against ThorVG.
"""
import argparse, ctypes, json, math, os, statistics, subprocess, sys, tempfile, time


def percentile(values, p):
    s = sorted(values)
    if not s:
        return float('nan')
    k = min(len(s) - 1, max(0, math.ceil(p * len(s)) - 1))
    return s[k]


class ThorVG:
    def __init__(self):
        import thorvg_python as tvg
        self.tvg = tvg
        self.engine = tvg.Engine(threads=0)

    def run(self, path, comp, frames, w, h):
        tvg = self.tvg
        t0 = time.perf_counter()
        canvas = tvg.SwCanvas(self.engine)
        canvas.set_target(w, h, cs=tvg.Colorspace.ABGR8888S)
        anim = tvg.LottieAnimation(self.engine)
        pic = anim.get_picture()
        if pic.load(path) != tvg.Result.SUCCESS:
            raise RuntimeError(f'ThorVG cannot load {path}')
        cw, ch = comp
        s = min(w / cw, h / ch)
        pic.set_size(cw * s, ch * s)
        pic.translate((w - cw * s) / 2, (h - ch * s) / 2)
        canvas.add(pic)
        load = time.perf_counter() - t0
        times = []
        for f in frames:
            t = time.perf_counter()
            anim.set_frame(float(f))
            canvas.update()
            canvas.draw(True)
            canvas.sync()
            times.append(time.perf_counter() - t)
        canvas.remove()
        return load, times


class RLottie:
    def __init__(self):
        from rlottie_python import LottieAnimation
        self.cls = LottieAnimation

    def run(self, path, comp, frames, w, h, count):
        t0 = time.perf_counter()
        anim = self.cls.from_file(path)
        load = time.perf_counter() - t0
        lib, handle = anim.rlottie_lib, anim.animation_p
        size = w * h * 4
        buf = ctypes.create_string_buffer(size)
        render = lib.lottie_animation_render
        render.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
        render.restype = None
        last = max(0, math.ceil(count - 1e-3) - 1)
        times = []
        for f in frames:
            n = min(last, int(round(f)))   # rlottie draws whole frames only
            t = time.perf_counter()
            render(handle, n, buf, w, h, w * 4)
            times.append(time.perf_counter() - t)
        del anim
        return load, times


def run_ours(player, path, fps, n, w, h):
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, 'stats.json')
        t0 = time.perf_counter()
        p = subprocess.run([player, 'play', path, '--headless', '--no-overlay', '--size', f'{w}x{h}', '--fps', str(fps),
                            '--frames', str(n), '--stats', stats], capture_output=True, text=True, timeout=600)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(f'live-player exited {p.returncode}: {p.stderr.strip()[:200]}')
        with open(stats) as f:
            s = json.load(f)
    times = [r['totalMs'] / 1000 for r in s['frames']]
    media = [r['mediaTime'] for r in s['frames']]
    return wall - s['elapsedSeconds'], times, media


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--player', required=True)
    ap.add_argument('--corpus', default=os.path.normpath(os.path.join(here, '../../../shared/lottie')))
    ap.add_argument('--size', default='512x512')
    ap.add_argument('--frames', type=int, default=120)
    ap.add_argument('--only', help='comma-separated case ids')
    ap.add_argument('--worst', type=int, default=15)
    ap.add_argument('--tsv', help='write the per-file figures here')
    a = ap.parse_args()
    w, h = (int(x) for x in a.size.lower().split('x'))
    cases = json.load(open(os.path.join(a.corpus, 'cases.json')))['cases']
    if a.only:
        keep = set(a.only.split(','))
        cases = [c for c in cases if c['id'] in keep]
    thorvg, rlottie = ThorVG(), RLottie()
    rows = []
    print(f'{"case":44s} {"ours p50":>9s} {"p99":>8s} {"thorvg p50":>10s} {"p99":>8s} {"rlottie p50":>11s} {"p99":>8s} {"ours/tvg":>8s} {"startup":>8s}   (ms)')
    for c in cases:
        path = os.path.join(a.corpus, c['file'])
        fr, count = c['fr'], c['op'] - c['ip']
        fps = min(1000, max(1, round(fr)))
        frames = [(k * fr / fps) % count for k in range(a.frames)]
        try:
            _, tv = thorvg.run(path, (c['w'], c['h']), frames, w, h)
            startup, ours, media = run_ours(a.player, path, fps, a.frames, w, h)
            _, rl = rlottie.run(path, (c['w'], c['h']), frames, w, h, count)
        except Exception as e:   # one file's failure is reported, the run goes on
            print(f'{c["id"]:44s} failed: {e}')
            continue
        if len(media) == len(frames):
            drift = max(abs(((m - media[0]) * fr) % count - f) % count for m, f in zip(media, frames))
            if min(drift, count - drift) > 1e-3:
                print(f'  note: {c["id"]}: our frames differ from the peers\' by up to {drift:.4f}')
        row = dict(id=c['id'], ours50=percentile(ours, .5), ours99=percentile(ours, .99), tvg50=percentile(tv, .5),
                   tvg99=percentile(tv, .99), rl50=percentile(rl, .5), rl99=percentile(rl, .99), startup=startup)
        row['ratio'] = row['ours50'] / row['tvg50'] if row['tvg50'] > 0 else float('inf')
        rows.append(row)
        ms = lambda v: f'{v * 1000:.3f}'
        print(f'{c["id"]:44s} {ms(row["ours50"]):>9s} {ms(row["ours99"]):>8s} {ms(row["tvg50"]):>10s} {ms(row["tvg99"]):>8s} '
              f'{ms(row["rl50"]):>11s} {ms(row["rl99"]):>8s} {row["ratio"]:8.2f} {ms(startup):>8s}', flush=True)
    if not rows:
        return 1
    med = lambda k: statistics.median(r[k] for r in rows) * 1000
    ratios = [r['ratio'] for r in rows]
    print()
    print(f'corpus: {len(rows)} files, {a.frames} frames each at {w}x{h}')
    print(f'median over files of p50 frame time: ours {med("ours50"):.3f} ms, thorvg {med("tvg50"):.3f} ms, rlottie {med("rl50"):.3f} ms')
    print(f'median over files of p99 frame time: ours {med("ours99"):.3f} ms, thorvg {med("tvg99"):.3f} ms, rlottie {med("rl99"):.3f} ms')
    print(f'ours/thorvg (median of p50s): {med("ours50") / med("tvg50"):.2f}; ours/rlottie: {med("ours50") / med("rl50"):.2f}')
    print(f'per-file ratio ours/thorvg p50: median {statistics.median(ratios):.2f}, geometric mean '
          f'{math.exp(statistics.fmean(math.log(x) for x in ratios)):.2f}, files at or below thorvg {sum(x <= 1 for x in ratios)}/{len(rows)}')
    print(f'\nslowest against thorvg (ours/thorvg p50):')
    for r in sorted(rows, key=lambda r: -r['ratio'])[:a.worst]:
        print(f'  {r["id"]:44s} {r["ratio"]:6.2f}  ours {r["ours50"] * 1000:.3f} ms  thorvg {r["tvg50"] * 1000:.3f} ms  rlottie {r["rl50"] * 1000:.3f} ms')
    if a.tsv:
        with open(a.tsv, 'w') as f:
            keys = ['id', 'ours50', 'ours99', 'tvg50', 'tvg99', 'rl50', 'rl99', 'ratio', 'startup']
            f.write('\t'.join(keys) + '\n')
            for r in rows:
                f.write('\t'.join(str(r[k]) for k in keys) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
