"""One pass over an HTML page with the standard library's parser: what the
site's checks and its search index read (ids, links, headings, text)."""
import dataclasses
import html.parser
import pathlib

# (tag, attribute) pairs that load or lead to another file
LINK_ATTRS = {("a", "href"), ("img", "src"), ("link", "href"),
              ("script", "src"), ("iframe", "src"), ("source", "src")}
HEADINGS = {"h1", "h2", "h3", "h4"}
SKIP_TEXT = {"script", "style", "nav", "aside", "footer", "header",
             "annotation"}   # (MathML's copy of the TeX)
# text of elements with these classes is not the page's text: pkgdown's
# hidden source file name (d-none) and what it marks not to index
HIDDEN_CLASSES = {"d-none", "dont-index"}


@dataclasses.dataclass
class Section:
    """A heading of the page's main part and the text under it."""
    level: str
    anchor: str
    title: str
    text: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Doc:
    path: pathlib.Path
    title: str = ""
    ids: set = dataclasses.field(default_factory=set)
    links: list = dataclasses.field(default_factory=list)  # (tag, url)
    events: list = dataclasses.field(default_factory=list)
    sections: list = dataclasses.field(default_factory=list)
    errors: list = dataclasses.field(default_factory=list)  # R errors


class _Parser(html.parser.HTMLParser):
    def __init__(self, doc):
        super().__init__(convert_charrefs=True)
        self.doc = doc
        self.main = 0          # depth inside <main>
        self.skip = 0          # depth inside script/style/nav/...
        self.grab = None       # (tag, attrs, [text]) being collected
        self.r_err = 0         # depth inside <span class="r-err ...">
        self.last_id = ""
        self.in_title = False
        self.hidden = None     # [tag, depth] of a hidden element open

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        for key in ("id", "name"):
            if attrs.get(key) and (key == "id" or tag == "a"):
                self.doc.ids.add(attrs[key])
        if attrs.get("id"):
            self.last_id = attrs["id"]
        for t, a in LINK_ATTRS:
            if tag == t and a in attrs:
                self.doc.links.append((tag, attrs[a]))
        if self.hidden and tag == self.hidden[0]:
            self.hidden[1] += 1
        elif self.hidden is None and HIDDEN_CLASSES & set(
                attrs.get("class", "").split()):
            self.hidden = [tag, 1]
        if tag == "main":
            self.main += 1
        elif tag in SKIP_TEXT:
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        if tag == "span" and (self.r_err or "r-err" in attrs.get(
                "class", "").split()):
            self.r_err += 1
            if self.r_err == 1:
                self.doc.errors.append("")
        if self.grab is None and (tag in HEADINGS or tag == "a"):
            self.grab = (tag, attrs, [])

    def handle_endtag(self, tag):
        if self.hidden and tag == self.hidden[0]:
            self.hidden[1] -= 1
            if not self.hidden[1]:
                self.hidden = None
        if tag == "main":
            self.main -= 1
        elif tag in SKIP_TEXT:
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = False
        if tag == "span" and self.r_err:
            self.r_err -= 1
        if self.grab and self.grab[0] == tag:
            g_tag, attrs, parts = self.grab
            text = " ".join("".join(parts).split())
            self.grab = None
            self.doc.events.append((g_tag, attrs, text, self.main > 0))
            if g_tag in HEADINGS and self.main > 0:
                self.doc.sections.append(Section(
                    g_tag, attrs.get("id") or self.last_id, text))

    def handle_data(self, data):
        if self.in_title:
            self.doc.title += data
        if self.grab:
            self.grab[2].append(data)
        if self.r_err:
            self.doc.errors[-1] += data
        if self.main > 0 and not self.skip and not self.hidden and \
                self.doc.sections and not (
                    self.grab and self.grab[0] in HEADINGS):
            self.doc.sections[-1].text.append(data)


def parse(path):
    """The page at `path` as a Doc."""
    doc = Doc(pathlib.Path(path))
    parser = _Parser(doc)
    parser.feed(pathlib.Path(path).read_text(encoding="utf-8"))
    parser.close()
    doc.title = " ".join(doc.title.split())
    return doc
