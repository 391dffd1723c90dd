/* pycg's pkgdown.js, in place of pkgdown's own (pkgdown copies a package's
 * pkgdown/assets/ last). pkgdown's needs bootstrap-toc, headroom.js,
 * clipboard.js and mark.js from a CDN, so an offline copy of the site would
 * stop with a script error; this one uses only the browser and Bootstrap
 * 5 (bundled in site/deps/): the "On this page" list, copy buttons on code,
 * and Bootstrap's tooltips. The search is site-search.js. */
(function () {
  "use strict";

  function headingText(h) {
    var copy = h.cloneNode(true);
    copy.querySelectorAll(".anchor").forEach(function (a) { a.remove(); });
    return copy.textContent.trim();
  }

  function headingId(h) {
    if (h.id) return h.id;
    var section = h.closest(".section[id], section[id]");
    return section && section.firstElementChild === h ? section.id : "";
  }

  function buildToc(nav) {
    var top = document.createElement("ul");
    top.className = "nav nav-pills flex-column";
    var last = null;
    document.querySelectorAll("main h2, main h3").forEach(function (h) {
      var id = headingId(h);
      if (!id) return;
      var li = document.createElement("li");
      li.className = "nav-item";
      var a = document.createElement("a");
      a.className = "nav-link";
      a.href = "#" + id;
      a.textContent = headingText(h);
      li.appendChild(a);
      if (h.tagName === "H3" && last) {
        var sub = last.querySelector("ul") || last.appendChild(
          Object.assign(document.createElement("ul"),
                        {className: "nav nav-pills flex-column"}));
        sub.appendChild(li);
      } else {
        top.appendChild(li);
        last = li;
      }
    });
    if (top.children.length) nav.appendChild(top);
    else nav.remove();
  }

  function addCopyButtons() {
    if (!navigator.clipboard) return;
    document.querySelectorAll("div.sourceCode").forEach(function (div) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-sm btn-primary btn-copy-ex";
      button.textContent = "Copy";
      button.title = "Copy to clipboard";
      button.addEventListener("click", function () {
        var text = div.textContent.replace(/\n#>[^\n]*/g, "")
          .replace(/^Copy/, "");
        navigator.clipboard.writeText(text).then(function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        });
      });
      div.classList.add("hasCopyButton");
      div.insertBefore(button, div.firstChild);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.getElementById("toc");
    if (nav) buildToc(nav);
    addCopyButtons();
    if (window.bootstrap) {
      document.querySelectorAll('[data-bs-toggle="tooltip"]')
        .forEach(function (e) { new bootstrap.Tooltip(e); });
      if (document.querySelector("#toc .nav"))
        new bootstrap.ScrollSpy(document.body, {target: "#toc",
                                                offset: 70});
    }
  });
})();
