/* “报告此页问题”：把读者最后在读的小节填进议题表单的“哪一节”。
   读者点这个链接时已经滚到了页底，视口里的小节总是最后一节，所以不能看点击那一刻：
   - 读者选中了一段文字，就报那段文字所在的小节；
   - 报读者最后停留过（读线停在那一节里至少 1.5 秒，且页底的构建信息不在视口里）的小节；
   - 经目录或锚点跳到某一节，也算在读那一节。 */
(function () {
  "use strict";
  var DWELL = 1500, lastRead = null, timer = 0;

  function headings() {
    return Array.prototype.slice.call(document.querySelectorAll(".md-content article h2[id], .md-content article h3[id]"));
  }
  function name(h) {
    if (!h) return "开头（第一个小标题之前）";
    var copy = h.cloneNode(true);
    copy.querySelectorAll(".headerlink").forEach(function (a) { a.remove(); });
    return copy.textContent.trim();
  }
  /* 读线：视口上方三分之一处；读线以上最近的标题就是正在读的小节。 */
  function atReadingLine() {
    var line = window.innerHeight / 3, found = null;
    headings().forEach(function (h) { if (h.getBoundingClientRect().top <= line) found = h; });
    return found;
  }
  function before(node) {
    var found = null;
    headings().forEach(function (h) {
      if (h === node || h.contains(node) || (h.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) found = h;
    });
    return found;
  }
  function selected() {
    var sel = window.getSelection && window.getSelection();
    if (!sel || sel.isCollapsed || !sel.anchorNode) return null;
    var article = document.querySelector(".md-content article");
    return article && article.contains(sel.anchorNode) ? name(before(sel.anchorNode)) : null;
  }
  function footerInView() {
    var f = document.querySelector(".tl-repro");
    if (!f) return false;
    var r = f.getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0;
  }
  function fill(section) {
    document.querySelectorAll("a.tl-report").forEach(function (link) {
      var url = new URL(link.href);
      url.searchParams.set("section", section);
      link.href = url.toString();
    });
  }
  function settle() {
    clearTimeout(timer);
    if (!document.querySelector("a.tl-report") || footerInView()) return;
    var h = atReadingLine();
    timer = setTimeout(function () { lastRead = name(h); fill(lastRead); }, DWELL);
  }
  function jumped() {
    var id = decodeURIComponent(location.hash.slice(1)), target = id && document.getElementById(id);
    if (target && /^H[23]$/.test(target.tagName)) { lastRead = name(target); fill(lastRead); }
  }
  /* 页面加载时不量任何位置（量位置会逼浏览器提前排版）：读者一滚动才开始记。 */
  function reset() { lastRead = null; jumped(); }

  window.addEventListener("scroll", settle, { passive: true });
  window.addEventListener("hashchange", jumped);
  /* 点链接时选区多半已被清掉：选区一出现就记下。 */
  document.addEventListener("selectionchange", function () {
    var section = selected();
    if (section !== null) { lastRead = section; fill(lastRead); }
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.tl-report");
    if (link) fill(lastRead !== null ? lastRead : name(atReadingLine()));
  });
  /* Material 的即时导航换页不重新加载脚本：每换一页从头记。 */
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(reset);
  else reset();
})();
