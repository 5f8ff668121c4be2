// Tile faces for mentalmj, drawn as SVG by this script (no image files,
// no fonts fetched): Tenhou tile ids 0..135, kind = id/4; ids 16, 52 and
// 88 are the red fives; -1 is a hidden tile.
"use strict";
const Tiles = (() => {
  const RED = new Set([16, 52, 88]);
  const MAN = ["一", "二", "三", "四", "伍", "六", "七", "八", "九"];
  const HONOR = ["東", "南", "西", "北", "", "發", "中"];
  const PIN = {
    1: [[15, 20, 9]],
    2: [[15, 11, 5.5], [15, 29, 5.5]],
    3: [[8, 9, 4.6], [15, 20, 4.6], [22, 31, 4.6]],
    4: [[9, 12, 5], [21, 12, 5], [9, 28, 5], [21, 28, 5]],
    5: [[8.5, 10, 4.3], [21.5, 10, 4.3], [15, 20, 4.3], [8.5, 30, 4.3], [21.5, 30, 4.3]],
    6: [[9, 8, 4.2], [21, 8, 4.2], [9, 20, 4.2], [21, 20, 4.2], [9, 32, 4.2], [21, 32, 4.2]],
    7: [[7, 6.5, 3.5], [15, 10.5, 3.5], [23, 14.5, 3.5], [9, 23, 3.8], [21, 23, 3.8], [9, 32.5, 3.8], [21, 32.5, 3.8]],
    8: [[9, 6.5, 3.7], [21, 6.5, 3.7], [9, 15.5, 3.7], [21, 15.5, 3.7], [9, 24.5, 3.7], [21, 24.5, 3.7], [9, 33.5, 3.7], [21, 33.5, 3.7]],
    9: [[7, 8, 3.6], [15, 8, 3.6], [23, 8, 3.6], [7, 20, 3.6], [15, 20, 3.6], [23, 20, 3.6], [7, 32, 3.6], [15, 32, 3.6], [23, 32, 3.6]],
  };
  // Sticks: [x, y, height]; the middle ones of 5, 7 (top) and 9 are red.
  const SOU = {
    2: [[15, 5, 13], [15, 22, 13]],
    3: [[15, 5, 13], [9, 22, 13], [21, 22, 13]],
    4: [[9, 5, 13], [21, 5, 13], [9, 22, 13], [21, 22, 13]],
    5: [[7, 5, 13], [23, 5, 13], [15, 13.5, 13], [7, 22, 13], [23, 22, 13]],
    6: [[6, 5, 13], [15, 5, 13], [24, 5, 13], [6, 22, 13], [15, 22, 13], [24, 22, 13]],
    7: [[15, 3, 9], [6, 14, 10], [15, 14, 10], [24, 14, 10], [6, 26, 10], [15, 26, 10], [24, 26, 10]],
    8: [[5, 5, 13], [11.5, 5, 13], [18.5, 5, 13], [25, 5, 13], [5, 22, 13], [11.5, 22, 13], [18.5, 22, 13], [25, 22, 13]],
    9: [[6, 3, 10], [15, 3, 10], [24, 3, 10], [6, 15, 10], [15, 15, 10], [24, 15, 10], [6, 27, 10], [15, 27, 10], [24, 27, 10]],
  };
  const redSou = { 5: [2], 7: [0], 9: [1, 4, 7] };
  const C = { red: "#c8102e", blue: "#1d4f91", green: "#177245", ink: "#1a1a1a" };

  // Without a CJK font the kanji would draw as empty boxes: the faces
  // then use Latin signs (numerals with "man", E S W N), 中 drawn with
  // shapes and 發 as a green H with "hatsu" under it.
  const cjk = (() => {
    try {
      const c = document.createElement("canvas").getContext("2d");
      c.font = "40px sans-serif";
      const tofu = c.measureText("\u{10FFFD}").width;
      return ["東", "萬", "中"].every((g) => c.measureText(g).width !== tofu);
    } catch (e) { return true; }
  })();
  const LATIN_HONOR = ["E", "S", "W", "N", "", "F", "C"];
  const FONT = `font-family="'Noto Sans CJK JP','Noto Sans JP','Hiragino Sans','Yu Gothic','MS Gothic','Noto Sans','DejaVu Sans',sans-serif"`;

  function face(id) {
    const k = Math.floor(id / 4), suit = Math.floor(k / 9), n = (k % 9) + 1, red = RED.has(id);
    let s = "";
    if (suit === 0) {
      if (cjk) {
        s += `<text x="15" y="17" font-size="15" text-anchor="middle" fill="${red ? C.red : C.ink}" font-weight="700" ${FONT}>${MAN[n - 1]}</text>`;
        s += `<text x="15" y="35" font-size="14" text-anchor="middle" fill="${C.red}" font-weight="700" ${FONT}>萬</text>`;
      } else {
        s += `<text x="15" y="22" font-size="20" text-anchor="middle" fill="${red ? C.red : C.ink}" font-weight="800" ${FONT}>${n}</text>`;
        s += `<text x="15" y="35" font-size="11" text-anchor="middle" fill="${C.red}" font-weight="700" ${FONT}>man</text>`;
      }
    } else if (suit === 1) {
      PIN[n].forEach(([x, y, r], i) => {
        let col = n === 1 ? C.red : [C.blue, C.green, C.red][i % 3];
        if (n === 5 && i === 2) col = C.red;
        if (n === 2 || n === 4 || n === 8) col = i % 2 ? C.green : C.blue;
        if (red) col = C.red;
        s += `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${col}" stroke-width="${r > 6 ? 2.2 : 1.6}"/>`;
        s += `<circle cx="${x}" cy="${y}" r="${r * 0.38}" fill="${col}"/>`;
      });
    } else if (suit === 2) {
      if (n === 1) {
        s += `<rect x="12.5" y="8" width="5" height="26" rx="2.5" fill="${C.green}"/>`;
        s += `<circle cx="15" cy="8" r="5" fill="${C.red}"/><circle cx="15" cy="8" r="2" fill="#fff"/>`;
      } else {
        SOU[n].forEach(([x, y, h], i) => {
          const col = red || (redSou[n] || []).includes(i) ? C.red : C.green;
          s += `<rect x="${x - 1.9}" y="${y}" width="3.8" height="${h}" rx="1.6" fill="${col}"/>`;
          s += `<line x1="${x - 1.9}" x2="${x + 1.9}" y1="${y + h / 2}" y2="${y + h / 2}" stroke="#fff" stroke-width="0.8"/>`;
        });
      }
    } else {
      const h = k - 27;
      if (h === 4) {
        s += `<rect x="7" y="8" width="16" height="24" fill="none" stroke="${C.blue}" stroke-width="2"/>`;
      } else {
        const col = h === 5 ? C.green : h === 6 ? C.red : C.ink;
        if (cjk) s += `<text x="15" y="27.5" font-size="19" text-anchor="middle" fill="${col}" font-weight="700" ${FONT}>${HONOR[h]}</text>`;
        else if (h === 6) {
          // 中 is drawn, not written: readable without a CJK font.
          s += `<rect x="7.5" y="13" width="15" height="11" rx="1" fill="none" stroke="${col}" stroke-width="2.8"/><rect x="13.6" y="6" width="2.8" height="28" rx="1" fill="${col}"/>`;
        } else if (h === 5) {
          // 發 (hatsu) without a CJK font: a green H with its name.
          s += `<text x="15" y="25" font-size="20" text-anchor="middle" fill="${col}" font-weight="800" ${FONT}>H</text>`;
          s += `<text x="15" y="35" font-size="8.5" text-anchor="middle" fill="${col}" font-weight="700" ${FONT}>hatsu</text>`;
        } else s += `<text x="15" y="28" font-size="21" text-anchor="middle" fill="${col}" font-weight="800" ${FONT}>${LATIN_HONOR[h]}</text>`;
      }
    }
    if (red) s += `<circle cx="25.5" cy="4.5" r="2.6" fill="${C.red}"/>`;
    return s;
  }

  function name(id) {
    if (id < 0) return "?";
    const k = Math.floor(id / 4);
    return (RED.has(id) ? 0 : (k % 9) + 1) + "mpsz"[Math.floor(k / 9)];
  }
  function kindName(k) { return ((k % 9) + 1) + "mpsz"[Math.floor(k / 9)]; }

  // svg returns the markup of one tile; opt.sideways turns it 90°.
  function svg(id, opt = {}) {
    const side = !!opt.sideways;
    const w = side ? 40 : 30, h = side ? 30 : 40;
    const cls = ["tile"].concat(opt.cls || []);
    if (RED.has(id)) cls.push("red5");
    let body;
    if (id < 0) {
      body = `<rect x="0.7" y="0.7" width="28.6" height="38.6" rx="3.5" fill="#2f7d6d" stroke="#1e4f45" stroke-width="1.4"/>`;
    } else {
      const bg = RED.has(id) ? "#ffe6e6" : "#fbf8ef";
      body = `<rect x="0.7" y="0.7" width="28.6" height="38.6" rx="3.5" fill="${bg}" stroke="#8b8577" stroke-width="1.4"/>` + face(id);
    }
    const g = side ? `<g transform="translate(0 30) rotate(-90)">${body}</g>` : body;
    return `<svg class="${cls.join(" ")}" viewBox="0 0 ${w} ${h}" data-tile="${id}" role="img" aria-label="${name(id)}">${g}</svg>`;
  }
  return { svg, name, kindName, RED, cjk };
})();
