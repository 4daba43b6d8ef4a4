extension HTMLReport {
    /// The page's style sheet (inline: the page loads nothing). Light and dark colour
    /// schemes; status colours from GitHub's Primer palette, which CI users know. Images
    /// are drawn with hard pixel edges (`image-rendering: pixelated`) over a checkerboard
    /// made by a gradient, not an image, and sized from `--w` (the natural width the
    /// script sets) times `--z` (the zoom), so without the script they show at 1:1.
    static let styleSheet = #"""
        :root {
          --bg: #f6f8fa; --card: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --hover: #f0f3f6;
          --accent: #0969da; --pressed: #1f2328; --on-pressed: #ffffff;
          --changed: #cf222e; --new: #0969da; --deleted: #8250df; --error: #bc4c00; --passed: #1a7f37;
          --check-a: #ffffff; --check-b: #e1e5ea; --region: #1b7c83; --region-current: #fb8500;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
          --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --card: #151b23; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --hover: #1c232c;
            --accent: #4493f8; --pressed: #e6edf3; --on-pressed: #0d1117;
            --changed: #f85149; --new: #4493f8; --deleted: #ab7df8; --error: #db6d28; --passed: #3fb950;
            --check-a: #3a4049; --check-b: #2b3038; --region: #39c5cf; --region-current: #ffa657;
          }
          .status { color: #0d1117; }
        }
        * { box-sizing: border-box; }
        html { background: var(--bg); color: var(--fg); font: 13px/1.45 var(--sans); }
        body { margin: 0; --z: 1; }
        body[data-zoom="2"] { --z: 2; }
        body[data-zoom="4"] { --z: 4; }
        body[data-zoom="8"] { --z: 8; }
        [data-status="changed"] { --c: var(--changed); }
        [data-status="new"] { --c: var(--new); }
        [data-status="deleted"] { --c: var(--deleted); }
        [data-status="error"] { --c: var(--error); }
        [data-status="passed"] { --c: var(--passed); }

        .masthead {
          position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line);
          padding: 12px 20px 10px; display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px;
        }
        .title { flex: 1 1 280px; min-width: 0; }
        h1 { font-size: 15px; font-weight: 600; margin: 0; overflow-wrap: anywhere; }
        .generated { margin: 1px 0 0; color: var(--muted); font-size: 12px; }
        .summary { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
        .count { background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
        .count label, .count.total { display: flex; align-items: center; gap: 6px; padding: 3px 10px 3px 8px; }
        .count label { cursor: pointer; user-select: none; }
        .count .n { font-size: 15px; font-weight: 700; font-variant-numeric: tabular-nums; color: var(--c, var(--fg)); }
        .count[data-count="0"] .n { color: var(--muted); }
        .count input { margin: 0; accent-color: var(--c); }
        .count:has(input:not(:checked)) { opacity: 0.5; }
        .count.total { border-style: dashed; }
        .controls { display: flex; flex-wrap: wrap; gap: 8px 20px; flex-basis: 100%; }
        .controls[hidden] { display: none; }
        .group, .tabs { display: flex; align-items: center; }
        .group .label { color: var(--muted); font-size: 12px; margin-right: 8px; }
        button {
          font: inherit; font-size: 12px; line-height: 18px; color: var(--fg); background: var(--card);
          border: 1px solid var(--line); margin: 0 0 0 -1px; padding: 1px 10px; cursor: pointer;
        }
        button:hover { background: var(--hover); }
        .group .label + button, .tabs button:first-child { border-radius: 6px 0 0 6px; margin-left: 0; }
        .group button:last-child, .tabs button:last-child { border-radius: 0 6px 6px 0; }
        button[aria-pressed="true"] {
          background: var(--pressed); color: var(--on-pressed); border-color: var(--pressed); position: relative;
        }
        button:focus-visible, summary:focus-visible, input:focus-visible {
          outline: 2px solid var(--accent); outline-offset: 1px;
        }

        main { padding: 12px 20px 48px; }
        .note { color: var(--muted); }
        .entry {
          background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--c);
          border-radius: 6px; margin: 0 0 6px; overflow: hidden;
        }
        .entry[hidden] { display: none; }
        .head {
          display: grid; grid-template-columns: 12px 76px minmax(12em, 2fr) minmax(12em, 3fr); gap: 12px;
          align-items: baseline; padding: 6px 12px 6px 10px;
        }
        .head::before { content: ""; color: var(--muted); font-size: 11px; }
        summary.head { cursor: pointer; list-style: none; }
        summary.head::-webkit-details-marker { display: none; }
        summary.head::before { content: "\25B8"; }
        details[open] > summary.head::before { content: "\25BE"; }
        summary.head:hover { background: var(--hover); }
        .status {
          justify-self: start; font-size: 10.5px; font-weight: 700; letter-spacing: 0.05em; text-transform: uppercase;
          color: #ffffff; background: var(--c); border-radius: 3px; padding: 1px 6px;
        }
        .path { font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
        .message { font-family: var(--mono); font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
        .images { border-top: 1px solid var(--line); padding: 8px 12px 12px 34px; }
        .tabs { margin: 0 0 8px; }
        .pane { display: none; flex-wrap: wrap; align-items: flex-start; gap: 12px 20px; }
        .pane-all,
        .entry[data-view="side"] .pane-side,
        .entry[data-view="diff"] .pane-diff,
        .entry[data-view="swipe"] .pane-swipe { display: flex; }
        body:not([data-ready]) .pane-swipe,
        body:not([data-ready]) .tabs,
        body:not([data-ready]) .summary input { display: none; }
        figure { margin: 0; min-width: 0; max-width: 100%; }
        figcaption {
          font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em;
          margin: 0 0 4px; white-space: nowrap;
        }
        figcaption .size, figcaption .hint {
          font-weight: 400; text-transform: none; letter-spacing: 0; font-variant-numeric: tabular-nums; margin: 0 4px;
        }
        .frame, .slider { display: inline-block; max-width: 100%; border: 1px solid var(--line); vertical-align: top; }
        /* Room for a region's outline at the image's edge (the frame scrolls, so it would clip it). */
        .frame { overflow: auto; line-height: 0; padding: 4px; }
        img.px {
          display: block; max-width: none; image-rendering: pixelated;
          width: calc(var(--w) * var(--z) * 1px);
          background: repeating-conic-gradient(var(--check-b) 0 25%, var(--check-a) 0 50%) 0 0 / 16px 16px;
        }
        body[data-zoom="fit"] img.px { width: auto; max-width: 100%; }
        body[data-zoom="fit"] .pane-side figure { flex: 1 1 0; }
        /* Narrow panes in fit zoom: captions wrap instead of running into the next. */
        body[data-zoom="fit"] figcaption { white-space: normal; }
        body[data-zoom="fit"] figcaption .size { white-space: nowrap; }
        img.px[data-broken] { min-width: 120px; min-height: 40px; line-height: normal; padding: 8px; font-size: 12px; }
        .refused { display: block; padding: 8px; color: var(--error); font-size: 12px; line-height: normal; }
        .pic { position: relative; display: inline-block; max-width: 100%; line-height: 0; vertical-align: top; }
        /* A region's box, outside its pixels (an outline does not hide them), at least 1 px. */
        .region {
          position: absolute; min-width: 1px; min-height: 1px; pointer-events: none;
          outline: 2px solid var(--region); outline-offset: 1px;
        }
        .region.current { outline: 3px solid var(--region-current); outline-offset: 2px; }
        kbd { font: 11px var(--mono); border: 1px solid var(--line); border-radius: 3px; padding: 0 3px; margin: 0 2px; }
        .missing {
          font-family: var(--sans); font-size: 11px; font-weight: 600; color: var(--error); border: 1px solid var(--error);
          border-radius: 3px; padding: 0 4px; white-space: nowrap;
        }
        .slider { --split: 50%; border: 0; }
        .stack {
          display: inline-grid; position: relative; line-height: 0; border: 1px solid var(--line);
          cursor: ew-resize; touch-action: none; user-select: none;
        }
        .stack > img, .stack > .over { grid-area: 1 / 1; }
        .stack .over { clip-path: inset(0 0 0 var(--split)); }
        .stack::after {
          content: ""; position: absolute; top: 0; bottom: 0; left: var(--split); border-left: 2px solid var(--accent);
          margin-left: -1px; pointer-events: none;
        }
        .slider input { display: block; width: 0; min-width: 100%; margin: 6px 0 0; accent-color: var(--accent); }
        @media (max-width: 720px) {
          .head { grid-template-columns: 12px 76px minmax(0, 1fr); }
          .message { grid-column: 3; }
        }

        """#

    /// The page's script (inline). It reads the URL fragment (`#filter=changed,new&view=diff&zoom=4`),
    /// applies it and writes it back as the controls change; it sets `data-ready="1"` on
    /// `<body>` last, so a test of the page (and its CSS) knows it ran.
    static let script = #"""
        (() => {
          "use strict";
          const STATUSES = ["changed", "new", "deleted", "error", "passed"];
          const VIEWS = ["side", "diff", "swipe"];
          const ZOOMS = ["fit", "1", "2", "4", "8"];
          const DEFAULT_VIEW = "side";
          const DEFAULT_ZOOM = "1";
          const body = document.body;
          const rows = Array.from(document.querySelectorAll("article.entry"));
          let state;

          // The state named by the fragment; anything unknown in it is ignored.
          function fromHash() {
            const next = { filter: STATUSES.slice(), view: DEFAULT_VIEW, zoom: DEFAULT_ZOOM };
            for (const part of location.hash.replace(/^#/, "").split("&")) {
              const at = part.indexOf("=");
              if (at < 0) continue;
              let value;
              try { value = decodeURIComponent(part.slice(at + 1)); } catch (error) { continue; }
              const key = part.slice(0, at);
              if (key === "filter") next.filter = STATUSES.filter((status) => value.split(",").includes(status));
              else if (key === "view" && VIEWS.includes(value)) next.view = value;
              else if (key === "zoom" && ZOOMS.includes(value)) next.zoom = value;
            }
            return next;
          }

          // The fragment for the state: only what differs from the defaults.
          function toHash() {
            const parts = [];
            if (state.filter.length !== STATUSES.length) parts.push("filter=" + state.filter.join(","));
            if (state.view !== DEFAULT_VIEW) parts.push("view=" + state.view);
            if (state.zoom !== DEFAULT_ZOOM) parts.push("zoom=" + state.zoom);
            const url = location.pathname + location.search + (parts.length ? "#" + parts.join("&") : "");
            try { history.replaceState(null, "", url); } catch (error) { /* a browser may refuse it for file: */ }
          }

          function press(buttons, isPressed) {
            for (const button of buttons) button.setAttribute("aria-pressed", String(isPressed(button)));
          }

          // A row shows `wanted`, or its first view when it has no such view (no diff).
          function setRowView(row, wanted) {
            const views = (row.dataset.views || "").split(" ").filter(Boolean);
            if (views.length === 0) return;
            const view = views.includes(wanted) ? wanted : views[0];
            row.dataset.view = view;
            press(row.querySelectorAll(".tabs button"), (button) => button.dataset.view === view);
          }

          function apply(resetRowViews) {
            let shown = 0;
            for (const row of rows) {
              const visible = state.filter.includes(row.dataset.status);
              row.hidden = !visible;
              if (visible) shown += 1;
              if (resetRowViews) setRowView(row, state.view);
            }
            for (const box of document.querySelectorAll(".summary input")) {
              box.checked = state.filter.includes(box.value);
            }
            press(document.querySelectorAll("[data-set-view]"), (button) => button.dataset.setView === state.view);
            press(document.querySelectorAll("[data-set-zoom]"), (button) => button.dataset.setZoom === state.zoom);
            body.dataset.filter = state.filter.join(",");
            body.dataset.view = state.view;
            body.dataset.zoom = state.zoom;
            body.dataset.shown = String(shown);
            const none = document.querySelector(".none-shown");
            if (none) none.hidden = shown > 0 || rows.length === 0;
          }

          function split(slider, percent) {
            slider.style.setProperty("--split", percent + "%");
            slider.querySelector("input").value = String(percent);
          }

          document.addEventListener("change", (event) => {
            if (!event.target.matches(".summary input")) return;
            state.filter = STATUSES.filter((status) => {
              const box = document.querySelector('.summary input[value="' + status + '"]');
              return box !== null && box.checked;
            });
            apply(false);
            toHash();
          });
          document.addEventListener("click", (event) => {
            const button = event.target.closest("button");
            if (button === null) return;
            if (button.dataset.setView) {
              state.view = button.dataset.setView;
              apply(true);
              toHash();
            } else if (button.dataset.setZoom) {
              state.zoom = button.dataset.setZoom;
              apply(false);
              toHash();
            } else if (button.dataset.view) {
              setRowView(button.closest("article.entry"), button.dataset.view);
            }
          });
          document.addEventListener("input", (event) => {
            if (event.target.matches(".slider input")) split(event.target.closest(".slider"), event.target.value);
          });
          // Dragging on the images moves the split too.
          document.addEventListener("pointerdown", (event) => {
            const stack = event.target.closest(".stack");
            if (stack === null || event.button !== 0) return;
            event.preventDefault();
            const slider = stack.closest(".slider");
            const move = (at) => {
              const box = stack.getBoundingClientRect();
              const fraction = box.width > 0 ? Math.min(1, Math.max(0, (at.clientX - box.left) / box.width)) : 0.5;
              split(slider, Math.round(fraction * 1000) / 10);
            };
            move(event);
            stack.setPointerCapture(event.pointerId);
            stack.onpointermove = move;
            stack.onpointerup = stack.onpointercancel = () => { stack.onpointermove = null; };
          });

          // Each image's natural size drives its zoomed size (CSS: --w times --z).
          function loaded(image) {
            image.style.setProperty("--w", String(image.naturalWidth));
            image.style.setProperty("--h", String(image.naturalHeight));
            image.dataset.loaded = "1";
            const size = image.closest("figure").querySelector(".size");
            if (size !== null && size.textContent === "") {
              size.textContent = image.naturalWidth + " \u00d7 " + image.naturalHeight;
            }
          }
          function broken(image) {
            image.dataset.broken = "1";
            image.alt = image.alt + " not found";
          }
          for (const image of document.querySelectorAll("img.px")) {
            if (image.complete && image.naturalWidth > 0) {
              loaded(image);
            } else {
              // An image that failed before this ran fired its error already.
              if (image.complete && image.loading !== "lazy") broken(image);
              image.addEventListener("load", () => loaded(image));
              image.addEventListener("error", () => broken(image));
            }
          }

          // Regions: "n" and "p" (or the buttons) step through every region of the rows
          // shown, in page order; the current one is outlined in another colour and
          // scrolled to, its row opened. body[data-region] names it: "entry-00002:1".
          let current = null;
          function regionStops() {
            const stops = [];
            for (const row of rows) {
              if (row.hidden) continue;
              const count = Number(row.dataset.regions || 0);
              for (let k = 1; k <= count; k += 1) stops.push({ row, k });
            }
            return stops;
          }
          function stepRegion(step) {
            const stops = regionStops();
            if (stops.length === 0) return;
            let at = current === null ? -1 : stops.findIndex((s) => s.row === current.row && s.k === current.k);
            at = at < 0 ? (step > 0 ? 0 : stops.length - 1) : (at + step + stops.length) % stops.length;
            current = stops[at];
            for (const box of document.querySelectorAll(".region.current")) box.classList.remove("current");
            const details = current.row.querySelector("details");
            if (details !== null) details.open = true;
            const boxes = Array.from(current.row.querySelectorAll('.region[data-region="' + current.k + '"]'));
            for (const box of boxes) box.classList.add("current");
            const seen = boxes.find((box) => box.checkVisibility());
            if (seen !== undefined) seen.scrollIntoView({ block: "center", inline: "center" });
            body.dataset.region = current.row.id + ":" + current.k;
          }
          document.addEventListener("keydown", (event) => {
            if (event.altKey || event.ctrlKey || event.metaKey) return;
            if (event.target instanceof Element && event.target.closest("input, textarea, select")) return;
            if (event.key === "n") stepRegion(1);
            else if (event.key === "p") stepRegion(-1);
          });
          document.addEventListener("click", (event) => {
            const button = event.target.closest("[data-region-step]");
            if (button !== null) stepRegion(Number(button.dataset.regionStep));
          });

          state = fromHash();
          apply(true);
          window.addEventListener("hashchange", () => {
            state = fromHash();
            apply(true);
          });
          document.querySelector(".controls").hidden = false;
          body.dataset.ready = "1";
        })();

        """#
}
