//! The page's files, built into the binary: `cargo run --release` serves the view with no
//! download, no CDN and no npm. The files live in `src/web/page/` and are plain HTML, CSS and
//! JavaScript (a small hand-written WebGL2 renderer), read as they are.

/// One file of the page.
pub struct Asset {
    pub name: &'static str,
    pub mime: &'static str,
    pub body: &'static str,
}

pub const ASSETS: &[Asset] = &[
    Asset { name: "index.html", mime: "text/html; charset=utf-8", body: include_str!("page/index.html") },
    Asset { name: "style.css", mime: "text/css; charset=utf-8", body: include_str!("page/style.css") },
    Asset { name: "app.js", mime: "text/javascript; charset=utf-8", body: include_str!("page/app.js") },
    Asset { name: "view3d.js", mime: "text/javascript; charset=utf-8", body: include_str!("page/view3d.js") },
];

/// The file called `name`, if the page has one.
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}
