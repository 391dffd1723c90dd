# The R half of the documentation site, with pkgdown (Debian's
# r-cran-pkgdown 2.0.7): the landing page (pkgdown/index.md), the R
# reference with every example run, the vignettes as articles, the Markdown
# guides under docs/ as pages, and an empty page python/index.html that
# tools/site/build.py fills with the grouped Python reference. Used by
# tools/site/build.py (`make docs`):
#
#   Rscript tools/site/build-r.R OUT [PARTS] [TOPICS]
#
# OUT: the site folder; PARTS: a comma list of init, reference, articles,
# home, news, guides, pages (default all; index builds only the reference's
# index); TOPICS: a comma list of help topics, to build only those pages. Run from the package root
# with R_LIBS naming the library where the pycg R package is installed and
# PYCG_PYTHON a Python that has pycg.
#
# The build works offline: pkgdown's CRAN look-ups (the "View on CRAN"
# link, downlit's links for packages that are not installed) are turned
# off, and pkgdown/templates/head.html loads no script from a CDN.
# An error here stops the build with the name of what failed; an example
# that stops with an error is found afterwards by tools/site/check.py
# (pkgdown shows it on the page), as are broken links.

args <- commandArgs(trailingOnly = TRUE)
if (!length(args))
  stop("usage: Rscript tools/site/build-r.R OUT [PARTS] [TOPICS]",
       call. = FALSE)
out <- args[[1]]
all_parts <- c("init", "reference", "articles", "home", "news", "guides",
               "pages")
parts <- if (length(args) >= 2 && nzchar(args[[2]]))
  strsplit(args[[2]], ",")[[1]] else all_parts
bad <- setdiff(parts, c(all_parts, "index"))
if (length(bad))
  stop("unknown part(s) ", paste0("`", bad, "`", collapse = ", "),
       "; the parts are ", paste(all_parts, collapse = ", "), call. = FALSE)
topics <- if (length(args) >= 3 && nzchar(args[[3]]))
  strsplit(args[[3]], ",")[[1]] else NULL

for (p in c("pkgdown", "rmarkdown"))
  if (!requireNamespace(p, quietly = TRUE))
    stop("the R package `", p, "` is not installed: run ",
         "`bash tools/setup-system.sh` as root (Debian's r-cran-", p, ")",
         call. = FALSE)

options(pkgdown.internet = FALSE)
# downlit links a package named in code to its CRAN page, looking up the
# ones that are not installed in CRAN's package list: offline, none is found
utils::assignInNamespace("CRAN_urls", function()
  data.frame(Package = character(), URL = character()), "downlit")

# The guides: every docs/*.md, titled by its first heading, in a "Guides"
# menu: the pages for users first (the Python quickstart at the top), the
# pages on how pycg is built and changed last, then BENCHMARKS.md (which
# pkgdown renders as a home page); any other guide in between, by name
FIRST_GUIDES <- c("python-quickstart", "training", "troubleshooting")
LAST_GUIDES <- c("python-api", "architecture", "shared-state", "contributing")
guides <- sort(list.files("docs", "[.]md$", full.names = TRUE))
stem <- sub("[.]md$", "", basename(guides))
rank <- ifelse(stem %in% FIRST_GUIDES, match(stem, FIRST_GUIDES),
               ifelse(stem %in% LAST_GUIDES, 100 + match(stem, LAST_GUIDES),
                      50))
guides <- guides[order(rank, stem)]
guide_title <- function(path) {
  h1 <- grep("^# ", readLines(path, encoding = "UTF-8"), value = TRUE)
  if (!length(h1))
    stop(path, " has no title (a first line `# Title`): every guide ",
         "needs one for the menu", call. = FALSE)
  sub("^# +", "", h1[[1]])
}
menu <- c(lapply(guides, function(g) list(
  text = guide_title(g),
  href = paste0("guides/", sub("[.]md$", ".html", basename(g))))),
  if (file.exists("BENCHMARKS.md"))
    list(list(text = guide_title("BENCHMARKS.md"),
              href = "BENCHMARKS.html")))
pkg <- pkgdown::as_pkgdown(".", override = list(
  destination = out,
  navbar = list(components = list(guides = list(text = "Guides",
                                                menu = menu)))))
# A new ops-<topic> page that no section of _pkgdown.yml names goes under
# the section "Ops" (the one that selects op_ pages), so a new file of ops
# needs no edit here before its pages show
named <- unlist(lapply(pkg$meta$reference, `[[`, "contents"))
new_ops <- setdiff(grep("^ops-", pkg$topics$name[!pkg$topics$internal],
                        value = TRUE), named)
ops <- which(vapply(pkg$meta$reference, function(s)
  identical(s$title, "Ops"), NA))
if (length(new_ops) && length(ops) == 1)
  pkg$meta$reference[[ops]]$contents <-
    c(pkg$meta$reference[[ops]]$contents, new_ops)

# Each step stops the build on a warning too (pkgdown warns where the site
# is broken: an image it cannot find, an example it left out), and says
# which step failed (a help page no section of _pkgdown.yml selects:
# "the site's reference step: ... Missing topics: <name>")
step <- function(label, expr) {
  t0 <- Sys.time()
  fail <- function(msg) stop("the site's ", label, " step: ", msg,
                             call. = FALSE)
  withCallingHandlers(force(expr), warning = function(w) {
    msg <- conditionMessage(w)
    if (grepl("@examplesIf condition", msg))
      msg <- paste0("an R example was not run (", msg, "): is pycg's ",
                    "Python side available? pycg::pycg_config() says")
    fail(msg)
  }, error = function(e) fail(conditionMessage(e)))
  cat(sprintf("site: %-10s %5.1f s\n", label,
              as.numeric(Sys.time() - t0, units = "secs")))
}

if ("init" %in% parts) step("init", pkgdown::init_site(pkg))
if ("reference" %in% parts) {
  suppressPackageStartupMessages(library(pycg))
  if (!pycg_available()) {
    pycg_config()
    stop("pycg's Python side is not available (above), so the reference ",
         "pages would show no example output", call. = FALSE)
  }
  step("reference", pkgdown::build_reference(
    pkg, examples = TRUE, devel = FALSE, preview = FALSE, topics = topics))
}
if ("index" %in% parts)
  step("index", pkgdown::build_reference_index(pkg))
if ("articles" %in% parts)
  step("articles", pkgdown::build_articles(pkg, preview = FALSE))
# after the articles: the landing page shows one of their figures
if ("home" %in% parts) step("home", pkgdown::build_home(pkg, preview = FALSE))
# NEWS.md as news/index.html, the navbar's "Changelog"
if ("news" %in% parts) step("news", pkgdown::build_news(pkg, preview = FALSE))

# A Markdown file as a page of the site, converted as pkgdown converts the
# Markdown pages of a package's home
# downlit links a function named in its code to its help page: pycg's own
# inside the site (as on the reference pages), not to a package index
# where pycg is not published
md_page <- function(input, path, title) {
  pkgdown:::local_options_link(pkg, depth = lengths(strsplit(path, "/")) - 1L)
  html <- tempfile(fileext = ".html")
  on.exit(unlink(html))
  rmarkdown::pandoc_convert(
    normalizePath(input), output = html, to = "html4",
    from = "markdown+gfm_auto_identifiers-citations+emoji+autolink_bare_uris",
    options = c("--section-divs", "--wrap=none"))
  body <- paste(readLines(html, encoding = "UTF-8"), collapse = "\n")
  body <- sub("<h1[^>]*>.*?</h1>", "", body, perl = TRUE)
  pkgdown::render_page(pkg, "title-body",
                       data = list(pagetitle = title, body = body),
                       path = path, quiet = TRUE)
}
if ("guides" %in% parts) step("guides", {
  dir.create(file.path(out, "guides"), showWarnings = FALSE)
  for (g in guides)
    md_page(g, paste0("guides/", sub("[.]md$", ".html", basename(g))),
            guide_title(g))
})
if ("pages" %in% parts) step("pages", {
  dir.create(file.path(out, "python"), showWarnings = FALSE)
  pkgdown::render_page(pkg, "title-body", data = list(
    pagetitle = "Python reference",
    body = "<div id=\"pycg-python-index\"></div>"),
    path = "python/index.html", quiet = TRUE)
})
