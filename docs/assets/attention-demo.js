/* 注意力的逐步演示与改数练习。数据由构建时的 tinylm 算好，嵌在页面的 data-attention 里；
   演示只负责排版，改数练习在浏览器里重做同样的算术（测试把它与 tinylm 的结果逐项核对）。
   数据带着 mask 时，演示在缩放与 Softmax 之间多一步“掩码”，挡住的格子写 −∞ 或 0、
   画斜纹，改数练习按同一个 mask 重算。JSON 写不了 −∞：被挡住的分数嵌成 null，这里按 mask 读回 −∞。 */
(function () {
  "use strict";
  /* 即时导航每次换到有演示的页面都会再执行本脚本一次；第一次订阅的 document$ 已经会为每一页初始化。 */
  if (window.__tlAttentionDemo) return;
  window.__tlAttentionDemo = true;
  var SUB = "₀₁₂₃₄₅₆₇₈₉";
  var STAGE_NAMES = { dot: "点积", scale: "缩放 ÷√d", mask: "掩码", softmax: "Softmax", sum: "汇总" };
  /* 样式由模板写在有演示的页面头部（overrides/main.html）。 */
  var exercises = 0;

  function sub(i) { return String(i).replace(/\d/g, function (c) { return SUB[c]; }); }
  function fmt(x) {
    if (!isFinite(x)) return isNaN(x) ? "NaN" : x < 0 ? "−∞" : "∞";
    var r = Math.round(x * 1e4) / 1e4;
    return r === Math.round(r) ? String(Math.round(r)) : r.toFixed(4);
  }
  /* 算式里的“≈”只给真的舍入了的数：exp(0) 正好是 1，写“=”。 */
  function eq(x) { return !isFinite(x) || fmt(x) === String(x) ? " = " : " ≈ "; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function button(text, onClick) {
    var b = el("button", "md-button tl-btn", text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }
  /* 挡住的格子：斜纹加虚线框（不只靠颜色）；格子里写的是数时，读屏软件另外读到“（挡住）”。 */
  function maskCell(td, say) {
    td.className = "is-masked";
    td.title = "掩码挡住：不许读";
    if (say) td.appendChild(el("span", "tl-sr", "（挡住）"));
  }
  /* blocked(i, j)：第 i 行第 j 格被掩码挡住（不给就没有挡住的格子）；text(x) 代替 fmt 写格子里的字。 */
  function matrix(name, rows, mark, heads, blocked, text) {
    var t = el("table", "tl-matrix");
    t.appendChild(el("caption", "", name));
    rows.forEach(function (row, i) {
      var tr = el("tr", mark[i] || ""), th = el("th", "", heads ? heads[i] : String(i));
      th.scope = "row";
      tr.appendChild(th);
      row.forEach(function (x, j) {
        var td = el("td", "", (text || fmt)(x));
        if (blocked && blocked(i, j)) maskCell(td, !text);
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    return t;
  }

  function note(text) { return el("p", "tl-mask-note", text); }

  function strip(name, values, mark, blocked) {
    var t = matrix(name, [values], { 0: mark }, [mark === "is-made" ? "得到" : "用到"], blocked);
    t.classList.add("tl-demo-row");
    t.querySelectorAll("td").forEach(function (td, j) { td.dataset.value = values[j]; });
    return t;
  }

  /* 同一套注意力算术：scores = q·k / √d，mask 挡住的换成 −∞，逐行 Softmax，再按比例汇总 V。 */
  function attention(q, k, v, mask) {
    var d = q[0].length;
    var weights = q.map(function (qi, i) {
      var s = k.map(function (kj, j) {
        if (mask && !mask[i][j]) return -Infinity;
        return qi.reduce(function (a, x, c) { return a + x * kj[c]; }, 0) / Math.sqrt(d);
      });
      var m = Math.max.apply(null, s);
      var e = s.map(function (x) { return Math.exp(x - m); });
      var sum = e.reduce(function (a, x) { return a + x; }, 0);
      return e.map(function (x) { return x / sum; });
    });
    var output = weights.map(function (w) {
      return v[0].map(function (_, c) { return w.reduce(function (a, x, j) { return a + x * v[j][c]; }, 0); });
    });
    return { weights: weights, output: output };
  }

  /* 页面嵌入的数据读成演示用的样子：有 mask 时，null 的分数读回 −∞（只许出现在挡住的格子）。 */
  function load(root) {
    var data = JSON.parse(root.dataset.attention);
    data.scaled = data.scaled || data.scores;
    if (data.mask) data.scores = data.scores.map(function (row, i) {
      return row.map(function (x, j) {
        if ((x === null) === data.mask[i][j]) throw new Error("attention-demo：第 " + i + " 行第 " + j + " 格的分数与 mask 对不上");
        return x === null ? -Infinity : x;
      });
    });
    data.stages = data.mask ? ["dot", "scale", "mask", "softmax", "sum"] : ["dot", "scale", "softmax", "sum"];
    data.blocked = data.mask ? function (i, j) { return !data.mask[i][j]; } : null;
    return data;
  }

  function stageLines(data, i, stage) {
    var q = data.q[i], lines = [];
    data.k.forEach(function (k, j) {
      var who = "q" + sub(i) + "·k" + sub(j);
      if (stage === "dot") lines.push(who + " = " + q.map(function (x, c) { return fmt(x) + "×" + fmt(k[c]); }).join(" + ") + " = " + fmt(data.dots[i][j]));
      if (stage === "scale") lines.push(who + " ÷ √" + data.d + " = " + fmt(data.dots[i][j]) + " ÷ " + fmt(Math.sqrt(data.d)) + eq(data.scaled[i][j]) + fmt(data.scaled[i][j]));
      if (stage === "mask") lines.push(who + (data.mask[i][j] ? "：可读，分数 " + fmt(data.scaled[i][j]) + " 不变" : "：挡住，分数 " + fmt(data.scaled[i][j]) + " → −∞"));
      if (stage === "softmax") lines.push("exp(" + fmt(data.scores[i][j]) + ")" + eq(data.exps[i][j]) + fmt(data.exps[i][j]));
    });
    if (stage === "softmax") {
      lines.push("分母 = " + data.exps[i].map(fmt).join(" + ") + eq(data.sums[i]) + fmt(data.sums[i]));
      data.exps[i].forEach(function (e, j) {
        lines.push("a" + sub(i) + sub(j) + " = " + fmt(e) + " / " + fmt(data.sums[i]) + eq(data.weights[i][j]) + fmt(data.weights[i][j]));
      });
    }
    if (stage === "sum") data.v[0].forEach(function (_, c) {
      lines.push("第 " + c + " 坐标：" + data.weights[i].map(function (w, r) { return fmt(w) + "×" + fmt(data.v[r][c]); }).join(" + ") + eq(data.output[i][c]) + fmt(data.output[i][c]));
    });
    return lines;
  }

  function initDemo(root) {
    var data = load(root), state = { row: 0, stage: 0 }, n = data.stages.length;
    root.textContent = "";
    root.tabIndex = -1;
    var rows = el("div", "tl-demo-rows"), stages = el("div", "tl-demo-stages"), nav = el("div", "tl-demo-nav");
    var status = el("p", "tl-demo-status"), view = el("div", "tl-demo-view"), math = el("ul", "tl-demo-math");
    status.setAttribute("aria-live", "polite");
    rows.setAttribute("role", "group");
    rows.setAttribute("aria-label", "选择查询行");
    stages.setAttribute("role", "group");
    stages.setAttribute("aria-label", "跳到某一步");
    var rowButtons = data.q.map(function (_, i) { return button("查询行 " + i, function () { go(i, state.stage); }); });
    var stageButtons = data.stages.map(function (kind, s) { return button((s + 1) + ". " + STAGE_NAMES[kind], function () { go(state.row, s); }); });
    var prev = button("◀ 上一步", function () { step(-1); }), next = button("下一步 ▶", function () { step(1); });
    rowButtons.forEach(function (b) { rows.appendChild(b); });
    stageButtons.forEach(function (b) { stages.appendChild(b); });
    nav.appendChild(prev);
    nav.appendChild(next);
    [rows, stages, nav, status, view].concat(data.mask ? [note("斜纹虚线格：掩码挡住、不许读的位置。")] : [], [math])
      .forEach(function (e) { root.appendChild(e); });
    root.addEventListener("keydown", function (ev) {
      if (ev.target.tagName === "INPUT") return;
      if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
        ev.preventDefault();
        step(ev.key === "ArrowRight" ? 1 : -1);
      }
    });

    function step(by) {
      var at = state.row * n + state.stage + by, last = data.q.length * n - 1;
      at = Math.max(0, Math.min(last, at));
      go(Math.floor(at / n), at % n);
    }
    function go(row, stage) {
      state.row = row;
      state.stage = stage;
      rowButtons.forEach(function (b, i) { b.setAttribute("aria-pressed", String(i === row)); });
      stageButtons.forEach(function (b, s) {
        if (s === stage) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
      });
      prev.disabled = row === 0 && stage === 0;
      next.disabled = row === data.q.length - 1 && stage === n - 1;
      status.textContent = "查询行 " + row + " · 第 " + (stage + 1) + "/" + n + " 步：" + STAGE_NAMES[data.stages[stage]];
      render();
    }
    function render() {
      var i = state.row, s = state.stage, kind = data.stages[s], reads = kind === "dot" || kind === "scale";
      var qMark = {}, kMark = {}, vMark = {}, mMark = {};
      qMark[i] = reads ? "is-used" : "";
      mMark[i] = kind === "mask" ? "is-used" : "";
      for (var j = 0; j < data.k.length; j++) { kMark[j] = reads ? "is-used" : ""; vMark[j] = kind === "sum" ? "is-used" : ""; }
      view.textContent = "";
      view.appendChild(matrix("Q", data.q, qMark));
      view.appendChild(matrix("K", data.k, kMark));
      if (data.mask) view.appendChild(matrix("掩码", data.mask, mMark, null, data.blocked, function (ok) { return ok ? "可读" : "挡住"; }));
      view.appendChild(matrix("V", data.v, vMark));
      var row = data.blocked && function (_, j) { return data.blocked(i, j); };  /* 本查询行挡住的格子 */
      var made = {
        dot: ["点积 q" + sub(i) + "·k", data.dots[i]], scale: ["分数 ÷√" + data.d, data.scaled[i]],
        mask: ["掩码后分数", data.scores[i], row], softmax: ["读取比例 a" + sub(i), data.weights[i], row], sum: ["输出", data.output[i]]
      };
      for (var t = Math.max(0, s - 1); t <= s; t++) {
        var m = made[data.stages[t]];
        view.appendChild(strip(m[0], m[1], t === s ? "is-made" : "is-used", m[2]));
      }
      math.textContent = "";
      stageLines(data, i, kind).forEach(function (line) { math.appendChild(el("li", "", line)); });
    }
    go(0, 0);
  }

  function initExercise(root) {
    var data = load(root);
    var base = attention(data.q, data.k, data.v, data.mask);
    root.textContent = "";
    var form = el("div", "tl-ex-inputs"), out = el("div", "tl-demo-view");
    var hint = el("p", "tl-ex-hint");
    hint.id = "tl-ex-hint-" + (++exercises);
    hint.setAttribute("role", "status");
    hint.hidden = true;
    var fields = [["q₀", 0, "q"], ["V 第三行", 2, "v"]].map(function (spec) {
      var group = el("fieldset", "tl-ex-field");
      group.appendChild(el("legend", "", spec[0]));
      return [0, 1].map(function (c) {
        var input = el("input");
        input.type = "number";
        input.step = "any";
        input.value = data[spec[2]][spec[1]][c];
        input.name = spec[2] + spec[1] + c;
        input.setAttribute("aria-label", spec[0] + " 第 " + c + " 坐标");
        input.setAttribute("aria-describedby", hint.id);
        input.addEventListener("input", update);
        group.appendChild(input);
        form.appendChild(group);
        return input;
      });
    });
    form.appendChild(button("恢复原例", function () {
      fields.forEach(function (pair, f) { pair.forEach(function (input, c) { input.value = data[f ? "v" : "q"][f ? 2 : 0][c]; }); });
      update();
    }));
    root.appendChild(form);
    root.appendChild(hint);
    root.appendChild(out);

    /* 空着的或不是数的格子不当 0 算：标出来、说明原因，这一轮什么也不算。 */
    function value(input) {
      var text = input.value.trim(), x = Number(text);
      var ok = text !== "" && !input.validity.badInput && isFinite(x);
      if (ok) input.removeAttribute("aria-invalid"); else input.setAttribute("aria-invalid", "true");
      return ok ? x : null;
    }

    function update() {
      var q = data.q.map(function (r) { return r.slice(); }), v = data.v.map(function (r) { return r.slice(); });
      var bad = [];
      fields.forEach(function (pair, f) {
        pair.forEach(function (input, c) {
          var x = value(input);
          if (x === null) bad.push(input.getAttribute("aria-label"));
          else if (f === 0) q[0][c] = x; else v[2][c] = x;
        });
      });
      if (bad.length) {
        hint.textContent = "请填数字：" + bad.map(function (n) { return "「" + n + "」"; }).join("") + "是空的或不是数。改好之前，这里不显示结果。";
        hint.hidden = false;
        out.textContent = "";
        return;
      }
      hint.hidden = true;
      hint.textContent = "";
      var r = attention(q, data.k, v, data.mask);
      var change = r.output.map(function (row, i) { return row.map(function (x, c) { return x - base.output[i][c]; }); });
      out.textContent = "";
      [["读取比例 A", r.weights, "weights", data.blocked], ["输出", r.output, "output"], ["输出变化（相对原例）", change, "change"]].forEach(function (m) {
        var t = matrix(m[0], m[1], {}, null, m[3]);
        t.dataset.result = m[2];
        t.querySelectorAll("tr").forEach(function (tr, i) {
          tr.querySelectorAll("td").forEach(function (td, c) { td.dataset.value = m[1][i][c]; });
        });
        out.appendChild(t);
      });
      if (data.mask) out.appendChild(note("斜纹虚线格：掩码挡住、不许读的位置，读取比例固定为 0。"));
    }
    update();
  }

  /* 演示等折叠块展开才搭界面；练习在正文里，页面加载后、主线程一空下来（最迟 0.3 秒）就搭好：
     等读者滚到附近再搭，页面会在读者眼前变长几百像素；在加载时那段脚本里同步搭，又会加长页面加载时的长任务。 */
  function whenNeeded(root, start) {
    var run = function () { if (!root.dataset.ready) { root.dataset.ready = "1"; start(root); } };
    var details = root.closest("details");
    if (details && !details.open) {
      details.addEventListener("toggle", function () { if (details.open) run(); });
    } else if (window.requestIdleCallback) {
      requestIdleCallback(run, { timeout: 300 });
    } else {
      setTimeout(run, 0);
    }
  }

  function init() {
    document.querySelectorAll(".tl-demo[data-attention]").forEach(function (r) { whenNeeded(r, initDemo); });
    document.querySelectorAll(".tl-exercise[data-attention]").forEach(function (r) { whenNeeded(r, initExercise); });
  }
  /* Material 的即时导航换页时不会重新加载脚本：订阅它的 document$，每换一页初始化一次。
     本脚本在正文里，排在 Material 的脚本前面（两个都 defer）：等文档读完（DOMContentLoaded）再看有没有 document$。 */
  function start() {
    if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);
    else init();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
