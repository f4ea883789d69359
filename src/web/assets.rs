//! The page files, embedded in the binary so that the server needs
//! nothing at run time: plain HTML, CSS and JavaScript modules, no build
//! step, no network. The piece drawings are SVG in `pieces.js`. Each page
//! is set into the one layout (head, header, navigation) with the controls
//! the pages share, once, on first use.

use std::sync::LazyLock;

/// The head, header and navigation every page shares: `{title}`, the
/// page's `{name}` (its address and script), its own `{head}` (styles),
/// its `{badge}` line and its `{body}`.
const LAYOUT: &str = include_str!("static/layout.html");

/// The controls more than one page has, each after a line
/// `<!--part NAME PARAM...-->`; a page asks for one with a line
/// `<!--@NAME VALUE...-->`, the last value taking the rest of the line.
const PARTS: &str = include_str!("static/parts.html");

/// The pages, by address. Each page's own text is a line
/// `<!--title TITLE-->`, a line `<!--badge HTML-->` if the header has one,
/// its styles, a line `<!--body-->`, then its body.
const PAGES: [&str; 4] = ["chess", "checkers", "chessforge", "games"];

fn text(name: &str) -> &'static str {
    match name {
        "chess" => include_str!("static/chess.html"),
        "checkers" => include_str!("static/checkers.html"),
        "chessforge" => include_str!("static/chessforge.html"),
        _ => include_str!("static/games.html"),
    }
}

/// The pages put together once, on first use, in the order of `PAGES`.
static BUILT: LazyLock<Vec<String>> = LazyLock::new(|| {
    PAGES
        .iter()
        .map(|name| build(name).unwrap_or_else(|e| panic!("{name}.html: {e}")))
        .collect()
});

/// The HTML of the page at `/{name}` (`chess`, `checkers`, `chessforge`,
/// `games`).
pub fn page(name: &str) -> Option<&'static str> {
    let index = PAGES.iter().position(|&page| page == name)?;
    Some(BUILT[index].as_str())
}

/// A page in the layout, its parts set in.
fn build(name: &str) -> Result<String, String> {
    let (title, own) = marked(text(name), "title").ok_or("no first line <!--title ...-->")?;
    let (badge, own) = match marked(own, "badge") {
        Some((badge, own)) => (format!("  {badge}\n"), own),
        None => (String::new(), own),
    };
    let (head, body) = own
        .split_once("<!--body-->\n")
        .ok_or("no line <!--body-->")?;
    let body = with_parts(body)?;
    let link = format!("<a href=\"/{name}\">");
    if !LAYOUT.contains(&link) {
        return Err(format!("the navigation has no {link}"));
    }
    let layout = LAYOUT.replacen(&link, &format!("<a href=\"/{name}\" class=\"current\">"), 1);
    let values = [
        ("title", title),
        ("name", name),
        ("head", head),
        ("badge", &badge),
        ("body", &body),
    ];
    Ok(fill(&layout, &values))
}

/// The value of a first line `<!--KEY VALUE-->` and the text after it.
fn marked<'a>(text: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    let (line, rest) = text.split_once('\n')?;
    let value = line
        .strip_prefix("<!--")?
        .strip_prefix(key)?
        .strip_prefix(' ')?;
    Some((value.strip_suffix("-->")?, rest))
}

/// `text` with each `<!--@NAME VALUE...-->` line replaced by its part.
fn with_parts(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.split_inclusive('\n') {
        let Some(call) = line
            .trim()
            .strip_prefix("<!--@")
            .and_then(|rest| rest.strip_suffix("-->"))
        else {
            out.push_str(line);
            continue;
        };
        let (name, values) = call.split_once(' ').unwrap_or((call, ""));
        let (params, template) = find_part(name).ok_or(format!("no part {name:?}"))?;
        let mut values = values.splitn(params.len().max(1), ' ');
        let pairs: Vec<(&str, &str)> = params
            .iter()
            .map(|&param| (param, values.next().unwrap_or("")))
            .collect();
        out.push_str(&fill(template, &pairs));
    }
    Ok(out)
}

/// The parameters and text of part `name`.
fn find_part(name: &str) -> Option<(Vec<&'static str>, &'static str)> {
    PARTS.split("<!--part ").skip(1).find_map(|part| {
        let (head, template) = part.split_once("-->\n")?;
        let mut words = head.split_whitespace();
        (words.next()? == name).then(|| (words.collect(), template))
    })
}

/// `template` with each `{key}` of `values` replaced; any other brace is
/// kept, and nothing is looked for again inside a value set in.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let found = values.iter().find(|(key, _)| {
            after
                .strip_prefix(key)
                .is_some_and(|tail| tail.starts_with('}'))
        });
        match found {
            Some((key, value)) => {
                out.push_str(value);
                rest = &after[key.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Files served under `/static/`, with their content types.
const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("static/style.css"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("static/board.js"),
    ),
    (
        "pieces.js",
        "text/javascript; charset=utf-8",
        include_str!("static/pieces.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_str!("static/api.js"),
    ),
    (
        "chess.js",
        "text/javascript; charset=utf-8",
        include_str!("static/chess.js"),
    ),
    (
        "checkers.js",
        "text/javascript; charset=utf-8",
        include_str!("static/checkers.js"),
    ),
    (
        "chessforge.js",
        "text/javascript; charset=utf-8",
        include_str!("static/chessforge.js"),
    ),
    (
        "games.js",
        "text/javascript; charset=utf-8",
        include_str!("static/games.js"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_str!("static/replay.js"),
    ),
    (
        "levels.js",
        "text/javascript; charset=utf-8",
        include_str!("static/levels.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("static/favicon.svg"),
    ),
];

/// The content type and text of a static file.
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|&(_, content_type, body)| (content_type, body))
}

/// Every embedded file with its size, for the page-weight check.
pub fn sizes() -> impl Iterator<Item = (&'static str, usize)> {
    PAGES
        .iter()
        .zip(BUILT.iter())
        .map(|(&name, html)| (name, html.len()))
        .chain(FILES.iter().map(|&(name, _, body)| (name, body.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The issue asks for a page under 200 KB; everything the chess page
    /// loads is counted.
    #[test]
    fn every_page_is_whole() {
        for name in PAGES {
            let html = super::page(name).unwrap();
            assert!(html.starts_with("<!doctype html>\n"), "{name}");
            assert!(html.ends_with("</body>\n</html>\n"), "{name}");
            assert!(!html.contains("<!--@"), "{name}");
            assert!(!html.contains("<!--body-->"), "{name}");
            let script = format!("<script type=\"module\" src=\"/static/{name}.js\">");
            assert!(html.contains(&script), "{name}");
            assert_eq!(html.matches("class=\"current\"").count(), 1, "{name}");
        }
        assert!(super::page("layout").is_none());
    }

    #[test]
    fn parts_take_their_values() {
        let text = "a\n    <!--@dialog-end load start Load the file-->\nb\n";
        let got = with_parts(text).unwrap();
        assert!(got.starts_with("a\n    <div class=\"message\" id=\"load-message\""));
        assert!(
            got.contains(r#"id="load-start">Load the file</button>"#),
            "{got}"
        );
        assert!(got.ends_with("  </form>\n</dialog>\nb\n"), "{got}");
        assert!(with_parts("<!--@nothing-->\n").is_err());
        assert_eq!(
            fill("{a} {b} {c}", &[("a", "{b}"), ("b", "2")]),
            "{b} 2 {c}"
        );
    }

    #[test]
    fn page_weight_is_under_200_kb() {
        let total: usize = sizes().map(|(_, n)| n).sum();
        assert!(total < 200_000, "{total} bytes");
    }
}
