extension TimelinePage {
  /// The page's style sheet: no fonts or images to fetch, system fonts only.
  static let style = #"""
    :root {
      --ink: #1d2430; --dim: #6b7280; --line: #d8dde5; --paper: #ffffff; --shade: #f4f6f9;
      --accent: #2f6fd6; --good: #1f7a3d; --good-bg: #e6f4ea; --bad: #b42318; --bad-bg: #fde8e6;
      --warn: #8a5a00; --warn-bg: #fff4d6; --mono: ui-monospace, "DejaVu Sans Mono", Menlo,
      Consolas, monospace;
    }
    * { box-sizing: border-box; }
    html, body { margin: 0; height: 100%; }
    body {
      font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
      color: var(--ink); background: var(--shade); display: flex; flex-direction: column;
    }
    header.top {
      background: var(--paper); border-bottom: 1px solid var(--line); padding: 10px 16px;
    }
    header.top h1 { font-size: 17px; margin: 0 0 6px; }
    header.top h1 #feature { font-family: var(--mono); color: var(--accent); }
    dl#facts { display: flex; flex-wrap: wrap; gap: 2px 18px; margin: 0 0 8px; }
    dl#facts .fact { display: flex; gap: 5px; }
    dl#facts dt { color: var(--dim); white-space: nowrap; }
    dl#facts dt::after { content: ":"; }
    dl#facts dd { margin: 0; }
    dl#facts dd.warn { color: var(--warn); }
    .status { padding: 6px 10px; border-radius: 6px; background: var(--shade); }
    .status.good { background: var(--good-bg); color: var(--good); }
    .status.bad { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
    .status button { font: inherit; font-weight: 400; margin-left: 6px; cursor: pointer; }
    #warnings { margin: 6px 0 0; padding-left: 18px; color: var(--warn); }
    #warnings:empty { display: none; }
    .scrub { display: flex; align-items: center; gap: 10px; margin-top: 8px; }
    .scrub input { flex: 1; }
    #position { font-family: var(--mono); color: var(--dim); min-width: 12em; text-align: right; }
    main { flex: 1; display: flex; min-height: 0; }
    .list-pane {
      width: 44%; min-width: 320px; display: flex; flex-direction: column;
      border-right: 1px solid var(--line); background: var(--paper);
    }
    #filter { margin: 8px; padding: 6px 8px; font: inherit; border: 1px solid var(--line);
      border-radius: 6px; }
    #list-info { padding: 0 10px 6px; color: var(--dim); font-size: 12px; }
    #list { flex: 1; overflow-y: auto; position: relative; outline: none; }
    #list-sizer { width: 1px; }
    #list-rows { position: absolute; top: 0; left: 0; right: 0; }
    .row {
      position: absolute; left: 0; right: 0; height: 22px; line-height: 22px; padding: 0 8px;
      white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-family: var(--mono);
      font-size: 12.5px; cursor: pointer;
    }
    .row.step:hover, .row.effect:hover { background: var(--shade); }
    .row.selected, .row.selected:hover { background: #dbe8fb; }
    .row.diverged {
      background: var(--bad-bg); color: var(--bad); border-left: 4px solid var(--bad);
    }
    .row.diverged.selected { background: #f9cdc8; }
    .row.unchecked, .row.unchecked .origin { color: var(--dim); font-style: italic; }
    .row .seq { display: inline-block; min-width: 4.5em; color: var(--dim); }
    .row .origin { display: inline-block; min-width: 4.2em; font-size: 11px; }
    .row .origin.user { color: var(--accent); }
    .row .origin.effect { color: #8b5cf6; }
    .row.effect { padding-left: calc(8px + 4.5em); color: var(--dim); }
    .row.effect .arrow { margin-right: 8px; font-size: 11px; }
    .row.gap, .row.end.warn { color: var(--warn); background: var(--warn-bg); cursor: default; }
    .row.end { color: var(--dim); cursor: default; text-align: center; }
    .row.end.bad { color: var(--bad); background: var(--bad-bg); text-align: left; }
    .detail-pane { flex: 1; overflow-y: auto; padding: 12px 18px 40px; min-width: 0; }
    #step-headline { font: 600 14px/1.4 var(--mono); margin: 0 0 6px; word-break: break-word; }
    .badge { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px;
      background: var(--shade); margin: 0 6px 6px 0; }
    .badge.bad { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
    .badge.warn { background: var(--warn-bg); color: var(--warn); }
    .badge.dim { color: var(--dim); }
    h3 { font-size: 13px; margin: 14px 0 6px; color: var(--dim); font-weight: 600; }
    h4 { font-size: 13px; margin: 8px 0 4px; }
    .columns { display: flex; flex-wrap: wrap; gap: 18px; }
    .columns > div { flex: 1; min-width: 280px; }
    #screen-section { flex: 0 0 auto; min-width: 300px; }
    .diff, #diff {
      font: 12.5px/1.5 var(--mono); background: var(--paper); border: 1px solid var(--line);
      border-radius: 6px; padding: 6px 0; white-space: pre; overflow-x: auto; }
    .diff > div, #diff > div { padding: 0 10px; }
    .del { background: var(--bad-bg); color: var(--bad); }
    .ins { background: var(--good-bg); color: var(--good); }
    .fold, .same { color: var(--dim); }
    ul.effects, #effects { margin: 0; padding-left: 18px; font: 12.5px/1.5 var(--mono); }
    #effects li, ul.effects li { word-break: break-word; }
    li.none { color: var(--dim); list-style: none; margin-left: -18px; font-family: inherit; }
    #divergence { border: 2px solid var(--bad); border-radius: 8px; padding: 4px 12px 12px;
      background: #fff7f6; margin: 6px 0 10px; }
    #divergence[hidden] { display: none; }
    #divergence h3 { color: var(--bad); }
    .sides { display: flex; gap: 14px; flex-wrap: wrap; }
    .side { flex: 1; min-width: 260px; }
    .note { color: var(--dim); margin: 0 0 6px; font-size: 12.5px; }
    .tree { font: 12.5px/1.55 var(--mono); background: var(--paper); border: 1px solid var(--line);
      border-radius: 6px; padding: 6px 10px; overflow-x: auto; }
    .tree .children { padding-left: 18px; border-left: 1px dotted var(--line); margin-left: 4px; }
    .tree summary { cursor: pointer; }
    .tree details:not([open]) > summary::after { content: " \2026"; color: var(--dim); }
    .tree .leaf, .tree .close { white-space: pre; }
    .phone { position: relative; width: 300px; min-height: 360px; border: 10px solid #20242c;
      border-radius: 26px; background: var(--paper); overflow: hidden; }
    .phone .bar { display: flex; justify-content: space-between; gap: 8px; padding: 8px 12px;
      background: var(--shade); border-bottom: 1px solid var(--line); font-size: 12px; }
    .phone .screen-title { font-weight: 600; }
    .phone .path { color: var(--accent); text-align: right; overflow-wrap: anywhere; }
    .screen-body { padding: 14px 16px; display: flex; flex-direction: column; gap: 8px; }
    .screen-body .heading { font-size: 16px; font-weight: 600; overflow-wrap: anywhere; }
    .field { display: flex; flex-direction: column; gap: 2px; }
    .field .label { font-size: 11px; color: var(--dim); }
    .field .input { border: 1px solid var(--line); border-radius: 6px; padding: 5px 8px;
      min-height: 30px; overflow-wrap: anywhere; white-space: pre-wrap; }
    .field .input.secure { letter-spacing: 2px; }
    .text { font-size: 12.5px; overflow-wrap: anywhere; white-space: pre-wrap; }
    .tone-dim { color: var(--dim); } .tone-success { color: var(--good); }
    .tone-error { color: var(--bad); } .tone-warning { color: var(--warn); }
    .tone-accent { color: var(--accent); }
    .button { text-align: center; padding: 7px; border-radius: 8px; background: var(--accent);
      color: #fff; font-weight: 600; margin-top: 4px; }
    .button.disabled { background: #c9d3e3; color: #f4f6fa; }
    .spinner {
      display: flex; align-items: center; gap: 8px; color: var(--accent); font-size: 12.5px;
    }
    .spin { width: 14px; height: 14px; border: 2px solid #c9d3e3; border-top-color: var(--accent);
      border-radius: 50%; animation: spin 0.8s linear infinite; }
    @keyframes spin { to { transform: rotate(360deg); } }
    .shade { position: absolute; inset: 0; background: rgba(20, 24, 32, 0.45); display: flex;
      align-items: center; justify-content: center; padding: 16px; }
    .alert { background: var(--paper); border-radius: 12px; padding: 14px; width: 100%;
      text-align: center; box-shadow: 0 6px 20px rgba(0, 0, 0, 0.25); }
    .alert-title { font-weight: 700; margin-bottom: 4px; overflow-wrap: anywhere; }
    .alert-message { font-size: 12.5px; white-space: pre-wrap; overflow-wrap: anywhere; }
    .alert-buttons { display: flex; justify-content: center; gap: 8px; margin-top: 10px; }
    .alert-button { color: var(--accent); font-weight: 600; padding: 2px 10px; }
    .stack { margin-top: 8px; font-size: 12px; color: var(--dim); width: 300px;
      overflow-wrap: anywhere; }
    noscript { padding: 20px; display: block; }
    """#
}
