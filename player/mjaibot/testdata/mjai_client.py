#!/usr/bin/env python3
"""A small mjai client for mentalmj's tests (Python 3, stdlib only).

It reads mjai events (JSON Lines) on stdin and answers only when an event
carries "can_act": true, as Mortal's libriichi does. It tracks its own
hand from start_kyoku, tsumo and its calls, and discards only tiles it
holds: a lone honour first, else the tile it just drew. It never calls:
on another player's tile it answers {"type":"none"}. In a three-player
game (the fourth seat has 0 points at the first start_kyoku, as Mortal's
sanma forks are sent) it declares kita ({"type":"nukidora","pai":"N"})
whenever it has just drawn and holds a north.

MJAI_EXPECT_SEAT, when set, must equal start_game's id (the tests pass
{seat} there).

Every line received is appended to the file named by MJAI_LOG (if set),
and every reply to MJAI_LOG + ".out". MJAI_MODE selects a fault for the
tests: "crash" exits on its third decision, "garbage" answers its first
decision with a malformed line, an oversized line and a flood before the
real answer, "illegal" makes its first discard a tile it does not hold, "slow"
sleeps 3 s before its first answer.
"""
import json
import os
import sys
import time

seat = None
hand = []
drawn = None
decisions = 0
sanma = None
said_illegal = False
mode = os.environ.get("MJAI_MODE", "")
log = open(os.environ["MJAI_LOG"], "a") if os.environ.get("MJAI_LOG") else None
out = open(os.environ["MJAI_LOG"] + ".out", "a") if os.environ.get("MJAI_LOG") else None


def reply(obj):
    line = json.dumps(obj, separators=(",", ":"))
    if out:
        out.write(line + "\n")
        out.flush()
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def remove(tile):
    hand.remove(tile)


def choose_discard():
    honours = [t for t in hand if t in ("E", "S", "W", "N", "P", "F", "C") and hand.count(t) == 1]
    if honours:
        return honours[0]
    if drawn is not None and drawn in hand:
        return drawn
    return hand[-1]


for raw in sys.stdin:
    raw = raw.strip()
    if not raw:
        continue
    if log:
        log.write(raw + "\n")
        log.flush()
    ev = json.loads(raw)
    t = ev["type"]
    if t == "start_game":
        seat = ev["id"]
        if os.environ.get("MJAI_EXPECT_SEAT", str(seat)) != str(seat):
            sys.exit(4)  # the {seat} given on the command line is not the id
    elif t == "start_kyoku":
        hand = list(ev["tehais"][seat])
        drawn = None
        if sanma is None:
            sanma = len(ev["scores"]) == 4 and ev["scores"][3] == 0
    elif t == "nukidora" and ev["actor"] == seat:
        remove(ev["pai"])
        drawn = None
    elif t == "tsumo" and ev["actor"] == seat:
        hand.append(ev["pai"])
        drawn = ev["pai"]
    elif t == "dahai" and ev["actor"] == seat:
        remove(ev["pai"])
        drawn = None
    elif t in ("chi", "pon", "daiminkan", "ankan") and ev["actor"] == seat:
        for c in ev["consumed"]:
            remove(c)
    elif t == "kakan" and ev["actor"] == seat:
        remove(ev["pai"])
    elif t == "end_game":
        break
    if ev.get("can_act") is not True:
        continue
    decisions += 1
    if mode == "crash" and decisions == 3:
        sys.exit(3)
    if mode == "slow" and decisions == 1:
        time.sleep(3)
    if mode == "garbage" and decisions == 1:
        sys.stdout.write("this is not json\n")
        sys.stdout.write("{" + "x" * 200000 + "}\n")
        for _ in range(500):
            sys.stdout.write('{"type":"none"}\n')
        sys.stdout.flush()
    actor = ev.get("actor")
    if sanma and t == "tsumo" and actor == seat and "N" in hand:
        reply({"type": "nukidora", "actor": seat, "pai": "N"})
    elif t in ("tsumo", "chi", "pon", "reach") and actor == seat:
        pai = choose_discard()
        if mode == "illegal" and not said_illegal:
            said_illegal = True
            pai = "9z" if "C" in hand else "C"
        reply({"type": "dahai", "actor": seat, "pai": pai, "tsumogiri": pai == drawn and t == "tsumo"})
    else:
        reply({"type": "none"})
