/* “报告此页问题”：点击时把读者正在读的小节（视口上方最近的标题）填进议题表单的“哪一节”。 */
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a.tl-report");
  if (!link) return;
  var current = "";
  document.querySelectorAll(".md-content h2, .md-content h3").forEach(function (h) {
    if (h.getBoundingClientRect().top < 120) current = h.textContent.replace(/¶$/, "").trim();
  });
  var url = new URL(link.href);
  url.searchParams.set("section", current);
  link.href = url.toString();
});
