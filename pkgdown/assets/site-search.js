/* pycg's site search: works offline, from file:// as from a server.
 * The index is a script, search-index.js (written by tools/site/search.py),
 * loaded on the first focus of the search box: a fetch() of a JSON file
 * would be refused from file://. Each entry: [kind, title, url, text],
 * url relative to the site root, which <meta name="pycg-site-root"> gives.
 * Every word typed must appear in an entry's title or text; names that
 * match the query best come first. */
(function () {
  "use strict";
  var MAX = 20;

  function root() {
    var meta = document.querySelector('meta[name="pycg-site-root"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function loadIndex(done) {
    if (window.PYCG_SEARCH_INDEX) return done();
    var s = document.createElement("script");
    s.src = root() + "search-index.js";
    s.onload = done;
    document.head.appendChild(s);
  }

  function score(entry, words, query) {
    var title = entry[1].toLowerCase(), text = entry[3].toLowerCase();
    var bare = title.replace(/\(\)$/, "");
    var total = 0;
    for (var i = 0; i < words.length; i++) {
      var inTitle = title.indexOf(words[i]) >= 0;
      if (!inTitle && text.indexOf(words[i]) < 0) return 0;
      total += inTitle ? 10 : 1;
    }
    if (bare === query || bare.split(".").pop() === query) total += 100;
    else if (bare.indexOf(query) === 0) total += 30;
    return total - title.length / 100;
  }

  function search(query) {
    query = query.trim().toLowerCase();
    if (query.length < 2) return [];
    var words = query.split(/\s+/), hits = [];
    var index = window.PYCG_SEARCH_INDEX || [];
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], words, query);
      if (s > 0) hits.push([s, index[i]]);
    }
    hits.sort(function (a, b) { return b[0] - a[0]; });
    return hits.slice(0, MAX).map(function (h) { return h[1]; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function attach(input) {
    var box = el("div", "pycg-search-results");
    box.setAttribute("role", "listbox");
    input.parentNode.style.position = "relative";
    input.parentNode.appendChild(box);
    var active = -1;

    function show() {
      var hits = search(input.value);
      box.textContent = "";
      active = -1;
      hits.forEach(function (h) {
        var a = el("a", "pycg-search-hit");
        a.href = root() + h[2];
        a.appendChild(el("span", "pycg-search-kind", h[0]));
        a.appendChild(el("span", "pycg-search-title", h[1]));
        if (h[3]) a.appendChild(el("span", "pycg-search-text", h[3]));
        box.appendChild(a);
      });
      if (!hits.length && input.value.trim().length >= 2)
        box.appendChild(el("div", "pycg-search-none", "No results"));
      box.style.display = box.childNodes.length ? "block" : "none";
    }
    function move(step) {
      var hits = box.querySelectorAll("a");
      if (!hits.length) return;
      if (active >= 0) hits[active].classList.remove("active");
      active = (active + step + hits.length) % hits.length;
      hits[active].classList.add("active");
      hits[active].scrollIntoView({block: "nearest"});
    }
    input.addEventListener("focus", function () { loadIndex(show); });
    input.addEventListener("input", function () { loadIndex(show); });
    input.addEventListener("keydown", function (e) {
      var hits = box.querySelectorAll("a");
      if (e.key === "ArrowDown") { move(1); e.preventDefault(); }
      else if (e.key === "ArrowUp") { move(-1); e.preventDefault(); }
      else if (e.key === "Enter" && hits.length) {
        window.location.href = hits[Math.max(active, 0)].href;
        e.preventDefault();
      } else if (e.key === "Escape") box.style.display = "none";
    });
    input.form && input.form.addEventListener("submit", function (e) {
      e.preventDefault();
    });
    document.addEventListener("click", function (e) {
      if (e.target !== input && !box.contains(e.target))
        box.style.display = "none";
    });
  }

  var css = ".pycg-search-results{display:none;position:absolute;right:0;" +
    "top:100%;z-index:2000;width:32rem;max-width:90vw;max-height:70vh;" +
    "overflow-y:auto;background:#fff;border:1px solid #ccc;" +
    "border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.15);" +
    "text-align:left;font-size:.9rem}" +
    ".pycg-search-hit{display:block;padding:.4rem .6rem;color:#222;" +
    "text-decoration:none;border-bottom:1px solid #eee}" +
    ".pycg-search-hit:hover,.pycg-search-hit.active{background:#eef3fb}" +
    ".pycg-search-kind{display:inline-block;min-width:4.2rem;font-size:.75rem;" +
    "color:#666;text-transform:uppercase}" +
    ".pycg-search-title{font-family:monospace;font-weight:600}" +
    ".pycg-search-text{display:block;color:#555;font-size:.8rem;" +
    "white-space:nowrap;overflow:hidden;text-overflow:ellipsis}" +
    ".pycg-search-none{padding:.4rem .6rem;color:#666}";

  document.addEventListener("DOMContentLoaded", function () {
    var style = el("style");
    style.textContent = css;
    document.head.appendChild(style);
    var inputs = document.querySelectorAll("#search-input, .pycg-search");
    for (var i = 0; i < inputs.length; i++) attach(inputs[i]);
  });
})();
