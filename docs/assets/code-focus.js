/* 代码块的键盘焦点（配合 coursekit/extensions/codeblocks.py 与 Material 的 content.lazy 功能）。
   代码块滚到眼前，Material 才“装上”它：在代码前插入复制按钮；不需要横向滚动的代码块，还会去掉它的 tabindex。
   读者用 Tab 走到一个还没装好的代码块时，这一装就会让焦点丢回页首，复制按钮也落在了焦点后面。
   所以装好的那一刻，把焦点交给这个代码块的复制按钮：装好以后，它本来就是代码块的第一个 Tab 停靠点。 */
(function () {
  "use strict";
  document.addEventListener("focusin", function (event) {
    var code = event.target, pre = code.parentElement;
    if (code.tagName !== "CODE" || !pre || pre.tagName !== "PRE" || pre.querySelector(".md-code__nav")) return;
    var mounted = new MutationObserver(function () {
      if (!pre.querySelector(".md-code__nav")) return;
      mounted.disconnect();
      var active = document.activeElement;
      if (active && active !== code && active !== document.body) return; /* 读者已经走开了 */
      var button = pre.querySelector(".md-code__nav button");
      if (button) return button.focus();
      if (!code.hasAttribute("tabindex")) code.setAttribute("tabindex", "-1");
      code.focus();
    });
    mounted.observe(pre, { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex"] });
  });
})();
