// Differential-test shim for package rules: reads one JSON request per
// line on stdin and writes one JSON answer per line, using
// @kobalab/majiang-core (npm) as the second implementation.
//
//   {"kind":"hule", "rule":{...}, "shoupai":"m123p456s789z11m4",
//    "rongpai":"m4-"|null, "zhuangfeng":0, "menfeng":1, "lizhi":0|1|2,
//    "yifa":false, "haidi":0|1|2, "tianhu":0|1|2, "baopai":["m1"],
//    "fubaopai":["p2"]|null, "changbang":0}
//     -> {"ok":true, "fanshu":N, "fu":N, "damanguan":N, "defen":N,
//         "fenpei":[4 ints]} or {"ok":false}
//   {"kind":"last", "rule":{...}, "zhuangfeng":Z, "jushu":J,
//    "lianzhuang":bool, "no_game":bool, "defen":[4 ints by seat],
//    "player_id":[the seat at East, South, West, North]}
//     -> {"jieju":bool, "zhuangfeng":Z, "jushu":J}
//
// Errors go to stderr with the request; the answer is {"error":"..."}.
"use strict";
const Majiang = require('@kobalab/majiang-core');
const readline = require('readline');

function hule(q) {
    const rule = Majiang.rule(q.rule);
    const shoupai = Majiang.Shoupai.fromString(q.shoupai);
    const param = Majiang.Util.hule_param({
        rule: rule, zhuangfeng: q.zhuangfeng, menfeng: q.menfeng,
        lizhi: q.lizhi, yifa: q.yifa, haidi: q.haidi, tianhu: q.tianhu,
        baopai: q.baopai, fubaopai: q.fubaopai, changbang: q.changbang,
        lizhibang: 0,
    });
    const r = Majiang.Util.hule(shoupai, q.rongpai, param);
    if (!r || !r.defen) return { ok: false };
    return { ok: true, fanshu: r.fanshu ?? 0, fu: r.fu ?? 0,
             damanguan: r.damanguan ?? 0, defen: r.defen, fenpei: r.fenpei };
}

function last(q) {
    const g = new Majiang.Game([], null, Majiang.rule(q.rule));
    g._sync = true;
    g._model.zhuangfeng = q.zhuangfeng;
    g._model.jushu = q.jushu;
    g._model.defen = q.defen.slice();
    g._model.player_id = q.player_id.slice();
    g._lianzhuang = q.lianzhuang;
    g._no_game = q.no_game;
    // As Game.kaiju sets it: the last regular hand (場数 × 4 - 1); in the
    // extension with renchan priority (延長戦方式 2) every hand played so
    // far raised it to the hand being played.
    g._max_jushu = q.rule['場数'] == 0 ? 0 : q.rule['場数'] * 4 - 1;
    const sum = q.zhuangfeng * 4 + q.jushu;
    if (q.rule['延長戦方式'] == 2 && sum > g._max_jushu) g._max_jushu = sum;
    let jieju = false;
    g.jieju = () => { jieju = true; };
    g.qipai = () => {};
    g.last();
    return { jieju: jieju, zhuangfeng: g._model.zhuangfeng, jushu: g._model.jushu };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
    let out;
    try {
        const q = JSON.parse(line);
        out = q.kind == 'last' ? last(q) : hule(q);
    } catch (e) {
        process.stderr.write(String(e && e.stack || e) + '\n' + line + '\n');
        out = { error: String(e) };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
});
