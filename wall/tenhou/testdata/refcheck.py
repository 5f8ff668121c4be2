#!/usr/bin/env python3
"""Reference checker for Tenhou logs: python3, standard library only.

The same checks as `mentalmj tenhou verify` (docs/wall-layout.md sections 1-7),
written plainly as a second, independent implementation and as the
baseline of the whole-run speed comparison in BENCHMARKS.md:

  per log:   the <SHUFFLE> seed -> mt19937ar init_by_array
  per kyoku: 288 genrand_int32 -> 9 SHA-512 (hashlib) -> rnd[0..143]
             -> swap shuffle of 136 (4p) or 108 (3p) tile ids
  checks:    INIT dice and dora indicator, hai0..hai3 in deal order, every
             draw (live and rinshan; a rinshan draw follows every kan and
             kita), every DORA tag, AGARI doraHai / doraHaiUra, and the
             tile count at every exhaustive draw.

Usage: refcheck.py [--mt python|stdlib] PATH...   (files or directories of
*.xml / *.mjlog, optionally .gz). Prints one summary line
  games G rounds R checks C mismatches M skipped S
and every mismatch; exit 0 when there is none, 1 otherwise.

--mt python (the default) runs genrand_int32 as written in mt19937ar.c;
--mt stdlib seeds the C generator of the random module through
random.setstate() with the state init_by_array produced (same outputs).
"""

import base64
import gzip
import hashlib
import os
import random
import struct
import sys
import xml.etree.ElementTree as ET


class MT19937:
    """Matsumoto and Nishimura's mt19937ar, genrand_int32, in Python."""

    def __init__(self, key):
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i += 1
            j += 1
            if i >= 624:
                mt[0] = mt[623]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0] = mt[623]
                i = 1
        mt[0] = 0x80000000
        self.mt = mt
        self.mti = 624

    def state(self):
        return self.mt, self.mti

    def genrand_int32(self):
        mt = self.mt
        if self.mti >= 624:
            for kk in range(624):
                y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7FFFFFFF)
                mt[kk] = mt[(kk + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.mti = 0
        y = mt[self.mti]
        self.mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def words(self, n):
        return [self.genrand_int32() for _ in range(n)]


class StdlibMT:
    """The random module's C mt19937 set to the state of init_by_array."""

    def __init__(self, key):
        ref = MT19937(key)
        self.r = random.Random()
        self.r.setstate((3, tuple(ref.mt) + (ref.mti,), None))

    def words(self, n):
        g = self.r.getrandbits
        return [g(32) for _ in range(n)]


def parse_seed(text):
    """Return (key words, legacy 2009 layout)."""
    if text.startswith("mt19937ar-sha512-n288-base64,"):
        raw = base64.b64decode(text.split(",", 1)[1])
        if len(raw) != 2496:
            raise ValueError("seed has %d bytes, want 2496" % len(raw))
        return list(struct.unpack("<624I", raw)), False
    if text.startswith("mt19937ar-sha512-n288,"):
        return [int(w, 16) for w in text.split(",")[1:]], True
    raise ValueError("unknown seed variant %r" % text[:40])


class Layout:
    def __init__(self, players, legacy):
        self.players = players
        self.size = 136 if players == 4 else 108
        self.legacy = legacy
        self.base = 4 if players == 4 else 8
        self.shift = 1 if legacy else 0

    def haipai(self, s, n):
        if n == 12:
            return self.size - 1 - 12 * self.players - s
        b, k = divmod(n, 4)
        return self.size - 1 - 4 * (self.players * b + s) - k

    def live(self, d):
        return self.size - 1 - 13 * self.players - d

    def live_draws(self):
        return self.size - 14 - 13 * self.players

    def rinshan(self, k):
        limit = 4 if self.players == 4 else 8
        if k >= limit:
            return -1
        return k if self.legacy else k ^ 1

    def dora(self, k):
        if k > 4:
            return -1
        return self.base + 1 + 2 * k - self.shift

    def ura(self, k):
        if k > 4:
            return -1
        return self.base + 2 * k + self.shift


def walls(key, legacy, players, mt):
    gen = (MT19937 if mt == "python" else StdlibMT)(key)
    layout = Layout(players, legacy)
    if players == 4:
        ids = list(range(136))
    else:
        ids = [0, 1, 2, 3] + list(range(32, 136))
    n = layout.size
    while True:
        src = struct.pack("<288I", *gen.words(288))
        digest = b"".join(hashlib.sha512(src[128 * c:128 * c + 128]).digest() for c in range(9))
        rnd = struct.unpack("<144I", digest)
        yama = list(ids)
        for i in range(n - 1):
            j = i + rnd[i] % (n - i)
            yama[i], yama[j] = yama[j], yama[i]
        yield yama, (rnd[135] % 6, rnd[136] % 6), layout


def tiles(text):
    return [int(x) for x in text.split(",")] if text else []


class Checker:
    def __init__(self, mt):
        self.mt = mt
        self.games = self.rounds = self.checks = self.skipped = 0
        self.mismatches = []

    def expect(self, where, want, got):
        self.checks += 1
        if want != got:
            self.mismatches.append("%s: expected %s, log has %s" % (where, want, got))

    def check_file(self, path):
        with open(path, "rb") as f:
            data = f.read()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        root = ET.fromstring(data)
        shuffle = root.find("SHUFFLE")
        if shuffle is None:
            self.skipped += 1
            return
        go = root.find("GO")
        players = 3 if int(go.get("type")) & 0x10 else 4
        key, legacy = parse_seed(shuffle.get("seed"))
        self.games += 1
        gen = walls(key, legacy, players, self.mt)
        yama = dice = layout = None
        live = rinshan = pending = kan = 0
        name = path
        for el in root:
            tag = el.tag
            if tag == "INIT":
                yama, dice, layout = next(gen)
                self.rounds += 1
                live = rinshan = pending = kan = 0
                f = [int(x) for x in el.get("seed").split(",")]
                name = "%s kyoku %d honba %d" % (path, f[0], f[1])
                self.expect(name + " dice", dice, (f[3], f[4]))
                self.expect(name + " dora indicator", yama[layout.dora(0)], f[5])
                oya = int(el.get("oya"))
                for seat in range(players):
                    s = (seat - oya) % players
                    want = [yama[layout.haipai(s, n)] for n in range(13)]
                    self.expect(name + " hai%d" % seat, want, tiles(el.get("hai%d" % seat)))
            elif tag[0] in "TUVW" and tag[1:].isdigit():
                got = int(tag[1:])
                if pending:
                    pending -= 1
                    idx = layout.rinshan(rinshan)
                    rinshan += 1
                    self.expect(name + " rinshan " + tag, yama[idx] if idx >= 0 else None, got)
                else:
                    self.expect(name + " draw " + tag, yama[layout.live(live)], got)
                    live += 1
            elif tag == "N":
                m = int(el.get("m"))
                if not m & 0x4 and not m & 0x8:
                    # kakan (0x10), kita (0x20) or a kan (daiminkan, ankan)
                    pending += 1
            elif tag == "DORA":
                kan += 1
                idx = layout.dora(kan)
                self.expect(name + " DORA", yama[idx] if idx >= 0 else None, int(el.get("hai")))
            elif tag == "AGARI":
                got = tiles(el.get("doraHai"))
                want = [yama[layout.dora(k)] for k in range(len(got))]
                self.expect(name + " doraHai", want, got)
                if el.get("doraHaiUra") is not None:
                    got = tiles(el.get("doraHaiUra"))
                    want = [yama[layout.ura(k)] for k in range(len(got))]
                    self.expect(name + " doraHaiUra", want, got)
            elif tag == "RYUUKYOKU" and el.get("type") is None:
                self.expect(name + " exhaustive draw", layout.live_draws(), live + rinshan)


def log_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames.sort()
                for fn in sorted(filenames):
                    low = fn.lower()
                    if low.endswith(".gz"):
                        low = low[:-3]
                    if low.endswith(".xml") or low.endswith(".mjlog"):
                        yield os.path.join(dirpath, fn)
        else:
            yield p


def main(argv):
    mt = "python"
    if len(argv) >= 2 and argv[0] == "--mt":
        mt, argv = argv[1], argv[2:]
    c = Checker(mt)
    for path in log_files(argv):
        c.check_file(path)
    print("games %d rounds %d checks %d mismatches %d skipped %d" % (c.games, c.rounds, c.checks, len(c.mismatches), c.skipped))
    for m in c.mismatches:
        print("MISMATCH", m)
    return 1 if c.mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
