//! `--format svg`: the SVG parses as XML and draws what the tour is (one
//! square per board square, holes as holes, one segment per move, the
//! closing move, the start); headless Chromium renders it to a picture that
//! is not blank.

use crate::common;

use std::collections::HashMap;

use common::cli::stdout_of;
use common::{Demands, Shape};

/// What an SVG draws, read back from its elements.
struct Drawing {
    /// Square name by centre point.
    squares: HashMap<(i64, i64), String>,
    holes: usize,
    /// Move number by square name.
    numbers: HashMap<String, usize>,
    /// Segments as pairs of centre points.
    moves: Vec<((i64, i64), (i64, i64))>,
    closing: Vec<((i64, i64), (i64, i64))>,
    start: Vec<(i64, i64)>,
    /// The picture's title.
    title: String,
}

fn number(node: roxmltree::Node, attribute: &str) -> i64 {
    node.attribute(attribute)
        .unwrap_or_else(|| panic!("{node:?} has no {attribute}"))
        .parse::<f64>()
        .unwrap() as i64
}

fn read_drawing(svg: &str) -> Drawing {
    let document = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let mut drawing = Drawing {
        squares: HashMap::new(),
        holes: 0,
        numbers: HashMap::new(),
        moves: Vec::new(),
        closing: Vec::new(),
        start: Vec::new(),
        title: String::new(),
    };
    let mut labels = Vec::new();
    for node in root.descendants().filter(roxmltree::Node::is_element) {
        match (
            node.tag_name().name(),
            node.attribute("class").unwrap_or(""),
        ) {
            ("rect", "square") => {
                let centre = (
                    number(node, "x") + number(node, "width") / 2,
                    number(node, "y") + number(node, "height") / 2,
                );
                let name = node.attribute("data-square").unwrap().to_string();
                drawing.squares.insert(centre, name);
            }
            ("rect", "hole") => drawing.holes += 1,
            ("line", kind @ ("move" | "closing-move")) => {
                let segment = (
                    (number(node, "x1"), number(node, "y1")),
                    (number(node, "x2"), number(node, "y2")),
                );
                if kind == "move" {
                    drawing.moves.push(segment);
                } else {
                    drawing.closing.push(segment);
                }
            }
            ("circle", "start") => drawing.start.push((number(node, "cx"), number(node, "cy"))),
            ("title", _) => drawing.title = node.text().unwrap_or("").to_string(),
            ("text", "number") => {
                let n: usize = node.text().unwrap().parse().unwrap();
                labels.push(((number(node, "x"), number(node, "y")), n));
            }
            _ => {}
        }
    }
    // A label sits on its square's centre column, a little below the middle.
    for ((x, y), n) in labels {
        let (_, name) = drawing
            .squares
            .iter()
            .find(|((cx, cy), _)| *cx == x && (y - cy).abs() <= 8)
            .unwrap_or_else(|| panic!("label {n} at ({x}, {y}) is on no square"));
        assert!(
            drawing.numbers.insert(name.clone(), n).is_none(),
            "two labels on {name}"
        );
    }
    drawing
}

fn centre_of(drawing: &Drawing, name: &str) -> (i64, i64) {
    *drawing
        .squares
        .iter()
        .find(|(_, n)| n.as_str() == name)
        .unwrap_or_else(|| panic!("no square {name}"))
        .0
}

#[test]
fn the_svg_draws_the_board_and_the_tour() {
    let cases: [(&[&str], Shape, bool); 4] = [
        (&["--size", "5"], Shape::knight(5, 5), false),
        (
            &["--size", "6", "--closed", "--holes", "c3,d3"],
            Shape {
                holes: vec![14, 15],
                ..Shape::knight(6, 6)
            },
            true,
        ),
        (
            &["--board", "3x4", "--leaper", "0,1", "--closed"],
            Shape {
                leaper: (0, 1),
                ..Shape::knight(3, 4)
            },
            true,
        ),
        (
            &["--board", "5x6", "--start", "b1", "--at", "30=a1"],
            Shape::knight(5, 6),
            false,
        ),
    ];
    for (args, shape, closed) in cases {
        let mut all = vec!["solve", "--format", "svg"];
        all.extend_from_slice(args);
        let svg = stdout_of(&all);
        // The title says what the path is (a closed tour's said only
        // "knight tour").
        let kind = if closed {
            "<title>closed "
        } else {
            "<title>open "
        };
        assert!(
            svg.contains(kind),
            "{args:?}: {}",
            svg.lines().nth(1).unwrap_or("")
        );
        let drawing = read_drawing(&svg);
        let n = shape.squares();
        assert_eq!(drawing.squares.len(), n, "{args:?}: one rect per square");
        assert_eq!(drawing.holes, shape.holes.len(), "{args:?}: holes drawn");
        assert_eq!(drawing.numbers.len(), n, "{args:?}: every square numbered");
        // The numbers are a tour, by the oracle.
        let mut order = vec![String::new(); n];
        for (name, &k) in &drawing.numbers {
            order[k - 1] = name.clone();
        }
        let path: Vec<usize> = order.iter().map(|name| shape.index_of(name)).collect();
        let demands = Demands {
            closed,
            clues: vec![],
        };
        assert!(
            common::is_tour_of(&shape, &demands, &path),
            "{args:?}: {order:?}"
        );
        // One segment per move, from square k to square k+1.
        assert_eq!(drawing.moves.len(), n - 1, "{args:?}");
        for (k, segment) in drawing.moves.iter().enumerate() {
            let expected = (
                centre_of(&drawing, &order[k]),
                centre_of(&drawing, &order[k + 1]),
            );
            assert_eq!(*segment, expected, "{args:?}: move {}", k + 1);
        }
        let closing = (
            centre_of(&drawing, &order[n - 1]),
            centre_of(&drawing, &order[0]),
        );
        let expected_closing = if closed { vec![closing] } else { vec![] };
        assert_eq!(drawing.closing, expected_closing, "{args:?}");
        assert_eq!(drawing.start, [centre_of(&drawing, &order[0])], "{args:?}");
    }
}

#[test]
fn the_puzzle_svg_shows_only_the_clues() {
    let puzzle = stdout_of(&["puzzle", "--size", "5", "--seed", "3"]);
    let clues = puzzle
        .lines()
        .flat_map(|line| line.split_whitespace().skip(1))
        .filter(|cell| cell.parse::<usize>().is_ok())
        .count();
    assert!(clues > 0, "{puzzle}");
    let drawing = read_drawing(&stdout_of(&[
        "puzzle", "--size", "5", "--seed", "3", "--format", "svg",
    ]));
    assert_eq!(drawing.squares.len(), 25);
    assert_eq!(drawing.numbers.len(), clues);
    assert_eq!(drawing.title, "knight tour puzzle on the 5x5 board");
    assert!(drawing.moves.is_empty() && drawing.start.is_empty());
    let solved = read_drawing(&stdout_of(&[
        "puzzle",
        "--size",
        "5",
        "--seed",
        "3",
        "--format",
        "svg",
        "--solution",
    ]));
    assert_eq!(solved.numbers.len(), 25);
    assert_eq!(solved.moves.len(), 24);
    assert_eq!(
        solved.title,
        "knight tour puzzle on the 5x5 board, solved (open tour)"
    );
}

/// Renders `svg` to PNG with headless Chromium and returns the RGBA pixels
/// and the image's width.
#[cfg(has_chromium)]
fn screenshot(svg: &str, width: usize, height: usize) -> (Vec<u8>, usize) {
    use std::process::Command;
    use std::time::Duration;
    use wait_timeout::ChildExt;

    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("tour.svg");
    let png_path = dir.path().join("tour.png");
    std::fs::write(&svg_path, svg).unwrap();
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("--screenshot={}", png_path.display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("file://{}", svg_path.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium starts");
    let Some(status) = child.wait_timeout(Duration::from_secs(120)).unwrap() else {
        child.kill().unwrap();
        panic!("chromium did not finish within 120 s");
    };
    assert!(status.success(), "chromium failed: {status}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("chromium wrote the screenshot"),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let rgba = pixels
        .chunks(channels)
        .flat_map(|p| match p {
            [r, g, b, a] => [*r, *g, *b, *a],
            [r, g, b] => [*r, *g, *b, 255],
            other => panic!("unexpected pixel format {other:?}"),
        })
        .collect();
    (rgba, info.width as usize)
}

#[test]
#[cfg_attr(not(has_chromium), ignore = "chromium is not installed")]
fn headless_chromium_renders_the_svg() {
    #[cfg(has_chromium)]
    {
        let svg = stdout_of(&[
            "solve", "--size", "6", "--closed", "--holes", "c3,d3", "--format", "svg",
        ]);
        let root = roxmltree::Document::parse(&svg).unwrap();
        let size = |name| number(root.root_element(), name) as usize;
        let (width, height) = (size("width"), size("height"));
        let (rgba, image_width) = screenshot(&svg, width, height);
        assert_eq!(image_width, width);
        let count = |colour: [u8; 3]| {
            rgba.chunks(4)
                .filter(|p| p.iter().zip(colour).all(|(&a, b)| a.abs_diff(b) <= 12))
                .count()
        };
        let pixels = rgba.len() / 4;
        // The light and dark squares, the holes and the path's ink all show.
        let light = count([0xf0, 0xd9, 0xb5]);
        let dark = count([0xb5, 0x88, 0x63]);
        let hole = count([0x3a, 0x3a, 0x3a]);
        let white = count([255, 255, 255]);
        assert!(
            light > pixels / 10,
            "light squares: {light} of {pixels} pixels"
        );
        assert!(
            dark > pixels / 10,
            "dark squares: {dark} of {pixels} pixels"
        );
        assert!(hole > pixels / 50, "holes: {hole} of {pixels} pixels");
        assert!(
            white < pixels / 2,
            "mostly blank: {white} of {pixels} white"
        );
        let mut colours: Vec<[u8; 4]> = rgba.chunks(4).map(|p| [p[0], p[1], p[2], p[3]]).collect();
        colours.sort_unstable();
        colours.dedup();
        assert!(
            colours.len() > 20,
            "only {} colours: no lines or numbers drawn",
            colours.len()
        );
    }
}
