(function () {
  'use strict';
  var ROW = 22;
  var CONTEXT = 2;
  var CACHE_SIZE = 64;
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  // Long runs of text (a 10 KB username) are kept once, in `runs`: a text that holds one is
  // an array of its pieces (strings inline, numbers for runs), and a screen part's string is
  // {"$": pieces}. Joined with `+`, so the browser shares the run instead of copying it.
  var runs = data.runs || [];
  function joined(pieces) {
    var text = '';
    for (var i = 0; i < pieces.length; i++) {
      text += typeof pieces[i] === 'number' ? runs[pieces[i]] : pieces[i];
    }
    return text;
  }
  function expanded(value) {
    if (Array.isArray(value)) { return value.map(expanded); }
    if (value === null || typeof value !== 'object') { return value; }
    if (Array.isArray(value.$)) { return joined(value.$); }
    var copy = {};
    Object.keys(value).forEach(function (key) { copy[key] = expanded(value[key]); });
    return copy;
  }
  var S = data.strings.map(function (text) {
    return typeof text === 'string' ? text : joined(text);
  });
  if (runs.length > 0) { data.parts = data.parts.map(expanded); }
  var steps = data.steps;
  var n = data.stepCount;
  // The canonical JSON values (states, patches) are texts too, parsed when a step needs them;
  // the steps after each whole state, for finding the one before a step.
  var values = S;
  var checkpointSteps = data.checkpoints.map(function (pair) { return pair[0]; });
  var verify = data.verify || { status: 'clean' };
  var divergedAt = verify.status === 'diverged' ? verify.index : -1;
  // From the first divergence on, how each step compares with the recording: 's' the same,
  // 'x' differs (its fields and effects in `differences`), 'u' not checked.
  var recording = steps.recording || '';
  var differences = new Map();
  (data.recordingDifferences || []).forEach(function (entry) {
    differences.set(entry[0], entry);
  });
  var gapBefore = new Map();
  data.gaps.forEach(function (gap) { gapBefore.set(gap.before, gap); });
  var hasScreens = data.initialScreen !== null;
  var labels = data.labels || {};
  var repeats = steps.repeats || '';
  var notesAt = new Map();
  (data.notes || []).forEach(function (pair) {
    if (!notesAt.has(pair[0])) { notesAt.set(pair[0], []); }
    notesAt.get(pair[0]).push(S[pair[1]]);
  });
  var LONG = 400;
  var selected = -1;
  // The list's items: the first step of each, and how many steps it stands for (more than
  // one for a collapsed group of repeats).
  var items = null;
  var itemSizes = null;
  var expanded = new Set();
  var lineStart = null;
  var tailRows = [];
  var collapsed = new Set();
  var lower = new Array(S.length);

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  // Control, format, separator, surrogate, private-use and unassigned characters — the ones
  // the package's Swift code calls invisible — are shown as \u{…}, never passed through.
  var INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/gu;

  function visible(text) {
    return String(text).replace(INVISIBLE, function (c) {
      return '\\u{' + c.codePointAt(0).toString(16).toUpperCase() + '}';
    });
  }

  function plural(count, word) { return count + ' ' + word + (count === 1 ? '' : 's'); }

  // ---- Canonical JSON, read so that nothing changes: a value is a node, and a leaf (a
  // number, string, true, false or null) is its text as written, so no number is rounded and
  // no string re-spelled. An object is {m: [[key as written, node], …]} in the log's key
  // order, an array {a: [node, …]}.

  function parseJSON(text) {
    var i = 0;
    function string() {
      var start = i++;
      while (i < text.length && text.charAt(i) !== '"') { i += text.charAt(i) === '\\' ? 2 : 1; }
      i++;
      return text.slice(start, i);
    }
    function value() {
      var c = text.charAt(i);
      var close;
      if (c === '{' || c === '[') {
        var node = c === '{' ? { m: [] } : { a: [] };
        close = c === '{' ? '}' : ']';
        i++;
        while (i < text.length && text.charAt(i) !== close) {
          if (node.m) {
            var key = string();
            i++;
            node.m.push([key, value()]);
          } else {
            node.a.push(value());
          }
          if (text.charAt(i) === ',') { i++; }
        }
        i++;
        return node;
      }
      if (c === '"') { return string(); }
      var start = i;
      while (i < text.length && ',]}'.indexOf(text.charAt(i)) < 0) { i++; }
      if (i === start) { throw new Error('not canonical JSON at ' + i); }
      return text.slice(start, i);
    }
    return value();
  }

  var parsed = new Map();

  // Value `id`, parsed (a few hundred are kept).
  function valueNode(id) {
    var node = parsed.get(id);
    if (node === undefined) {
      node = parseJSON(values[id]);
      if (parsed.size >= 4 * CACHE_SIZE) { parsed.delete(parsed.keys().next().value); }
      parsed.set(id, node);
    }
    return node;
  }

  // The member of object `node` whose key is written `written` (quotes included), or undefined.
  function memberWritten(node, written) {
    for (var k = 0; node.m && k < node.m.length; k++) {
      if (node.m[k][0] === written) { return node.m[k][1]; }
    }
    return undefined;
  }

  function memberOf(node, name) { return memberWritten(node, '"' + name + '"'); }

  // Whether key `a` sorts before key `b` (both as written): by the UTF-8 bytes of the keys,
  // as canonical JSON orders them.
  var utf8 = new TextEncoder();
  function keyPrecedes(a, b) {
    var x = utf8.encode(JSON.parse(a));
    var y = utf8.encode(JSON.parse(b));
    for (var k = 0; k < x.length && k < y.length; k++) {
      if (x[k] !== y[k]) { return x[k] < y[k]; }
    }
    return x.length < y.length;
  }

  // `patch` (a step's, parsed) applied to `node`. Containers made while applying (in `owned`)
  // are changed in place; any other is copied first, so a state another step shows is never
  // changed.
  function applyPatch(node, patch, owned) {
    function own(container) {
      if (owned.has(container)) { return container; }
      var copy = container.m ? { m: container.m.slice() } : { a: container.a.slice() };
      owned.add(copy);
      return copy;
    }
    function apply(target, at, k, op) {
      var value = memberOf(op, 'value');
      if (k === at.length) {
        if (value !== undefined) { return value; }
        var count = memberOf(op, 'count');
        if (count === undefined || !target.a) { throw new Error('a patch does not apply'); }
        var cut = own(target);
        cut.a.length = Number(count);
        return cut;
      }
      var part = at[k];
      var last = k === at.length - 1;
      if (target.m) {
        var object = own(target);
        var place = object.m.length;
        for (var j = 0; j < object.m.length; j++) {
          if (object.m[j][0] === part) {
            if (last && memberOf(op, 'remove') !== undefined) {
              object.m.splice(j, 1);
            } else {
              object.m[j] = [part, apply(object.m[j][1], at, k + 1, op)];
            }
            return object;
          }
          if (place === object.m.length && keyPrecedes(part, object.m[j][0])) { place = j; }
        }
        if (!last || value === undefined) { throw new Error('a patch reaches a missing member'); }
        object.m.splice(place, 0, [part, value]);
        return object;
      }
      if (target.a) {
        var array = own(target);
        var index = Number(part);
        if (last && index === array.a.length && value !== undefined) {
          array.a.push(value);
        } else if (index < array.a.length) {
          array.a[index] = apply(array.a[index], at, k + 1, op);
        } else {
          throw new Error('a patch reaches a missing element');
        }
        return array;
      }
      throw new Error('a patch reaches into a value that is not a container');
    }
    patch.a.forEach(function (op) { node = apply(node, memberOf(op, 'at').a, 0, op); });
    return node;
  }

  // ---- States: the initial state, a whole state now and then (a checkpoint), and each
  // step's patch from the state before it; a gap restarts from its own state.

  var states = new Map();

  function remember(map, index, value) {
    if (map.size >= CACHE_SIZE) { map.delete(map.keys().next().value); }
    map.set(index, value);
  }

  // The last checkpoint at or before step `index`: its position, or -1.
  function checkpointBefore(index) {
    var low = 0;
    var high = checkpointSteps.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (checkpointSteps[middle] <= index) { low = middle + 1; } else { high = middle; }
    }
    return low - 1;
  }

  function stateAt(index) {
    if (index < 0) { return valueNode(data.initial); }
    var known = states.get(index);
    if (known) { return known; }
    var node;
    var start;
    var before = states.get(index - 1);
    if (before && !gapBefore.has(index)) {
      node = before;
      start = index;
    } else {
      var position = checkpointBefore(index);
      if (position >= 0) {
        node = valueNode(data.checkpoints[position][1]);
        start = checkpointSteps[position] + 1;
      } else {
        node = valueNode(data.initial);
        start = 0;
      }
    }
    var owned = new Set();
    for (var j = start; j <= index; j++) {
      var gap = gapBefore.get(j);
      if (gap) { node = valueNode(gap.resumed); }
      if (steps.changes[j] >= 0) { node = applyPatch(node, valueNode(steps.changes[j]), owned); }
    }
    remember(states, index, node);
    return node;
  }

  // ---- A value's lines, as `replay` prints a state: `key: value`, a key without its quotes
  // when it is a plain name, array elements under their index, nested values indented by two
  // spaces, every leaf as the log writes it.

  function keyText(written) {
    var inner = written.slice(1, -1);
    return /^[A-Za-z0-9_]+$/.test(inner) ? inner : visible(written);
  }

  function appendLines(node, label, indent, lines) {
    var prefix = indent + (label === null ? '' : label + ': ');
    if (typeof node === 'string') {
      lines.push(prefix + visible(node));
      return;
    }
    var children = node.m || node.a;
    var brackets = node.m ? ['{', '}'] : ['[', ']'];
    if (children.length === 0) {
      lines.push(prefix + brackets[0] + brackets[1]);
      return;
    }
    lines.push(prefix + brackets[0]);
    children.forEach(function (child, k) {
      if (node.m) {
        appendLines(child[1], keyText(child[0]), indent + '  ', lines);
      } else {
        appendLines(child, '[' + k + ']', indent + '  ', lines);
      }
    });
    lines.push(indent + brackets[1]);
  }

  // The lines of `node`: an object's members are the lines themselves, without its braces.
  function linesOf(node) {
    var lines = [];
    if (node.m && node.m.length > 0) {
      node.m.forEach(function (member) { appendLines(member[1], keyText(member[0]), '', lines); });
    } else {
      appendLines(node, null, '', lines);
    }
    return lines;
  }

  var stateLineCache = new Map();

  function stateLines(index) {
    var known = stateLineCache.get(index);
    if (known) { return known; }
    var lines = linesOf(stateAt(index));
    remember(stateLineCache, index, lines);
    return lines;
  }

  function previousLines(index) {
    var gap = gapBefore.get(index);
    return gap ? linesOf(valueNode(gap.resumed)) : stateLines(index - 1);
  }

  // ---- Line diff: common head and tail, a longest common subsequence in between.

  function diffRows(a, b) {
    var head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) { head++; }
    var tail = 0;
    while (tail < a.length - head && tail < b.length - head &&
      a[a.length - 1 - tail] === b[b.length - 1 - tail]) { tail++; }
    var rows = [];
    var k;
    for (k = 0; k < head; k++) { rows.push([' ', a[k]]); }
    var x = a.slice(head, a.length - tail);
    var y = b.slice(head, b.length - tail);
    if (x.length * y.length > 4000000) {
      x.forEach(function (id) { rows.push(['-', id]); });
      y.forEach(function (id) { rows.push(['+', id]); });
    } else {
      var width = y.length + 1;
      var table = new Int32Array((x.length + 1) * width);
      for (var i = x.length - 1; i >= 0; i--) {
        for (var j = y.length - 1; j >= 0; j--) {
          table[i * width + j] = x[i] === y[j] ? table[(i + 1) * width + j + 1] + 1
            : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
        }
      }
      var p = 0;
      var q = 0;
      while (p < x.length || q < y.length) {
        if (p < x.length && q < y.length && x[p] === y[q]) {
          rows.push([' ', x[p]]); p++; q++;
        } else if (q >= y.length ||
          (p < x.length && table[(p + 1) * width + q] >= table[p * width + q + 1])) {
          rows.push(['-', x[p]]); p++;
        } else {
          rows.push(['+', y[q]]); q++;
        }
      }
    }
    for (k = a.length - tail; k < a.length; k++) { rows.push([' ', a[k]]); }
    return rows;
  }

  function foldRows(rows) {
    var keep = new Uint8Array(rows.length);
    rows.forEach(function (row, index) {
      if (row[0] === ' ') { return; }
      var last = Math.min(rows.length - 1, index + CONTEXT);
      for (var k = Math.max(0, index - CONTEXT); k <= last; k++) { keep[k] = 1; }
    });
    var folded = [];
    var skipped = 0;
    rows.forEach(function (row, index) {
      if (keep[index]) {
        if (skipped) { folded.push(['…', skipped]); skipped = 0; }
        folded.push(row);
      } else { skipped++; }
    });
    if (skipped) { folded.push(['…', skipped]); }
    return folded;
  }

  function renderDiff(container, index) {
    container.replaceChildren();
    var rows = diffRows(previousLines(index), stateLines(index));
    if (!rows.some(function (row) { return row[0] !== ' '; })) {
      container.appendChild(el('div', 'same', 'No state change.'));
      return;
    }
    foldRows(rows).forEach(function (row) {
      if (row[0] === '…') {
        container.appendChild(el('div', 'fold', '    … (' + row[1] + ' unchanged)'));
        return;
      }
      var sign = row[0] === '-' ? '\u2212 ' : row[0] === '+' ? '+ ' : '  ';
      var className = row[0] === '-' ? 'del' : row[0] === '+' ? 'ins' : 'ctx';
      container.appendChild(el('div', className, sign + row[1]));
    });
  }

  function renderTextDiff(container, lines) {
    container.replaceChildren();
    if (lines.length === 0) {
      container.appendChild(el('div', 'same', 'No state change.'));
      return;
    }
    lines.forEach(function (line) {
      var sign = line.charAt(0);
      var className = sign === '\u2212' ? 'del' : sign === '+' ? 'ins' : 'ctx';
      container.appendChild(el('div', className, line));
    });
  }

  // ---- The state as a collapsible tree, from the indented lines of its rendering.

  function labelOf(content) {
    var colon = content.indexOf(': ');
    return colon > 0 ? content.slice(0, colon) : content;
  }

  // A long value shows its first LONG characters and a button that shows the rest.
  function leaf(content) {
    var node = el('div', 'leaf', content.length > LONG ? content.slice(0, LONG) : content);
    if (content.length > LONG) {
      var more = el('button', 'more', '\u2026 show all ' + content.length + ' characters');
      more.addEventListener('click', function () { node.textContent = content; });
      node.appendChild(more);
    }
    return node;
  }

  // `lines` are a value's (``linesOf``); `scope` keeps what is folded in one tree apart from
  // the other's.
  function renderTree(container, lines, scope) {
    // What the person folded or opened in the tree shown until now, read from the tree itself
    // (a `toggle` event comes later, and can come after the next step's tree is drawn).
    container.querySelectorAll('details').forEach(function (shown) {
      if (shown.open) { collapsed.delete(shown.dataset.path); } else {
        collapsed.add(shown.dataset.path);
      }
    });
    var root = el('div', 'tree');
    var stack = [{ body: root, path: scope || '' }];
    lines.forEach(function (line) {
      var content = line.replace(/^ +/, '');
      var top = stack[stack.length - 1];
      if (stack.length > 1 && /^[)\]}]/.test(content)) {
        stack.pop().close.textContent = content;
        return;
      }
      if (/[(\[{]$/.test(content)) {
        var path = top.path + '/' + labelOf(content);
        var details = el('details');
        details.dataset.path = path;
        details.open = !collapsed.has(path);
        details.appendChild(el('summary', null, content));
        var body = el('div', 'children');
        var close = el('div', 'close');
        details.appendChild(body);
        details.appendChild(close);
        top.body.appendChild(details);
        stack.push({ body: body, close: close, path: path });
        return;
      }
      top.body.appendChild(leaf(content));
    });
    container.replaceChildren(root);
  }

  // ---- The action: the JSON the log records, and its lines as the tree shows them.

  // The step's action as the log holds it (secrets as their masks), or null.
  function actionJSON(index) {
    var id = steps.actionJSON ? steps.actionJSON[index] : -1;
    return id >= 0 ? S[id] : null;
  }

  function renderAction(index) {
    var tree = $('action-tree');
    var raw = $('action-json');
    var json = index >= 0 ? actionJSON(index) : null;
    raw.textContent = json === null ? '' : visible(json);
    raw.hidden = json === null;
    if (json !== null) {
      renderTree(tree, linesOf(parseJSON(json)), '/action');
    } else {
      tree.replaceChildren(el('div', 'same', index < 0 ? 'No steps: the log has no action.'
        : 'The log\u2019s JSON for this action could not be written again (see the ' +
          'warning replay printed).'));
    }
  }

  // ---- The tabs under the step: its state, or its action.

  var TABS = ['state', 'action'];

  function showTab(name) {
    TABS.forEach(function (tab) {
      var on = tab === name;
      $('tab-' + tab).setAttribute('aria-selected', on ? 'true' : 'false');
      $('tab-' + tab).tabIndex = on ? 0 : -1;
      $('panel-' + tab).hidden = !on;
    });
  }

  // ---- The mock screen.

  function renderScreen(container, screenID) {
    container.replaceChildren();
    if (screenID === null || screenID === undefined) { return; }
    var parts = data.screens[screenID].map(function (id) { return data.parts[id]; });
    var phone = el('div', 'phone');
    var bar = el('div', 'bar');
    var body = el('div', 'screen-body');
    var alerts = [];
    parts.forEach(function (part) {
      switch (part.k) {
      case 'title':
        bar.appendChild(el('span', 'screen-title', visible(part.t)));
        break;
      case 'path':
        bar.appendChild(el('span', 'path', part.v.map(visible).join(' \u203a ')));
        break;
      case 'heading':
        body.appendChild(el('div', 'heading', visible(part.t)));
        break;
      case 'text':
        body.appendChild(el('div', 'text tone-' + part.tone, visible(part.t)));
        break;
      case 'field':
      case 'secure':
        var field = el('div', 'field');
        field.appendChild(el('span', 'label', visible(part.label)));
        var value = part.k === 'field' ? visible(part.value)
          : '\u2022'.repeat(Math.min(part.length, 40)) + (part.length > 40 ? '\u2026' : '');
        field.appendChild(el('span', part.k === 'field' ? 'input' : 'input secure', value));
        body.appendChild(field);
        break;
      case 'button':
        var button = el('div', part.enabled ? 'button' : 'button disabled', visible(part.t));
        button.title = part.enabled ? 'enabled' : 'disabled';
        body.appendChild(button);
        break;
      case 'spinner':
        var spinner = el('div', 'spinner');
        spinner.appendChild(el('span', 'spin'));
        spinner.appendChild(el('span', null, visible(part.t)));
        body.appendChild(spinner);
        break;
      case 'alert':
        var alert = el('div', 'alert');
        alerts.push(alert);
        alert.appendChild(el('div', 'alert-title', visible(part.title)));
        alert.appendChild(el('div', 'alert-message', visible(part.message)));
        var buttons = el('div', 'alert-buttons');
        part.buttons.forEach(function (title) {
          buttons.appendChild(el('span', 'alert-button', visible(title)));
        });
        alert.appendChild(buttons);
        break;
      }
    });
    phone.appendChild(bar);
    phone.appendChild(body);
    if (alerts.length > 0) {
      var shade = el('div', 'shade');
      alerts.forEach(function (alert) { shade.appendChild(alert); });
      phone.appendChild(shade);
    }
    container.appendChild(phone);
    var path = parts.filter(function (part) { return part.k === 'path'; })[0];
    if (path) {
      container.appendChild(el('div', 'stack', 'Navigation stack: ' +
        path.v.map(visible).join(' \u203a ')));
    }
  }

  // ---- The step list: only the rows in view exist in the document.

  var list = $('list');
  var rowsBox = $('list-rows');
  var sizer = $('list-sizer');

  function itemCount() { return items.length; }
  function itemAt(position) { return items[position]; }

  function heightOf(position) {
    var index = items[position];
    var lines = (gapBefore.has(index) ? 1 : 0) + 1;
    return itemSizes[position] > 1 ? lines : lines + steps.effectIDs[index].length;
  }

  // The steps that repeat the one before them: same action, same effects, and no state
  // change but a counter (see the builder's `repeats`).
  function repeatsPrevious(index) { return repeats.charAt(index) === '1'; }

  // The items of `shown` (step indices in order): a run of repeats is one item until it is
  // expanded.
  function buildItems(shown) {
    var heads = [];
    var sizes = [];
    var k = 0;
    while (k < shown.length) {
      var head = shown[k];
      var end = k + 1;
      while (end < shown.length && shown[end] === shown[end - 1] + 1 &&
        repeatsPrevious(shown[end])) { end++; }
      if (end - k > 1 && !expanded.has(head)) {
        heads.push(head);
        sizes.push(end - k);
      } else {
        for (var j = k; j < end; j++) { heads.push(shown[j]); sizes.push(1); }
      }
      k = end;
    }
    items = Int32Array.from(heads);
    itemSizes = Int32Array.from(sizes);
  }

  // The length of the run of repeats that starts at `index` (1 for a step that starts none).
  function runLength(index) {
    if (repeatsPrevious(index)) { return 1; }
    var end = index + 1;
    while (end < n && repeatsPrevious(end)) { end++; }
    return end - index;
  }

  function layout() {
    var count = itemCount();
    lineStart = new Int32Array(count + 1);
    for (var k = 0; k < count; k++) { lineStart[k + 1] = lineStart[k] + heightOf(k); }
    sizer.style.height = ((lineStart[count] + tailRows.length) * ROW) + 'px';
  }

  function positionOfLine(line) {
    var low = 0;
    var high = itemCount();
    while (low < high) {
      var middle = (low + high) >> 1;
      if (lineStart[middle + 1] <= line) { low = middle + 1; } else { high = middle; }
    }
    return low;
  }

  // The first position whose item starts at or after `index`.
  function lowerBound(index) {
    var low = 0;
    var high = items.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (items[middle] < index) { low = middle + 1; } else { high = middle; }
    }
    return low;
  }

  // The position of the item that holds step `index`, or -1 when the list does not show it.
  function positionOf(index) {
    var position = lowerBound(index + 1) - 1;
    if (position < 0 || index >= items[position] + itemSizes[position]) { return -1; }
    return position;
  }

  function stepClass(index, size) {
    var names = 'row step';
    if (selected >= index && selected < index + size) { names += ' selected'; }
    if (index === divergedAt) { names += ' diverged'; }
    if (divergedAt >= 0 && index > divergedAt) {
      var verdict = recording.charAt(index);
      names += verdict === 'x' ? ' differs' : verdict === 's' ? '' : ' unchecked';
    }
    if (size > 1) { names += ' group'; }
    return names;
  }

  // A break before a step: a new launch of a flight recording (its text says which), or
  // transitions the recorder dropped.
  function gapText(gap) {
    if (gap.text) { return gap.text; }
    return '\u22ef ' + plural(gap.count, 'transition') + ' dropped here (line ' + gap.line +
      '): the recorder fell behind; the replay resumes from the state recorded there';
  }

  function placeRow(row, line) {
    row.style.top = (line * ROW) + 'px';
    rowsBox.appendChild(row);
  }

  function originOf(index) { return steps.sender.charAt(index) === 'u' ? 'user' : 'effect'; }

  function clockOf(index) { return steps.clock ? steps.clock[index] : null; }

  // An action or effect as a row shows it: the leaf and its payload first, then where it
  // came from; the whole text in the row's tooltip and in the selected step.
  function appendLabel(row, id) {
    var label = labels[id];
    row.title = S[id];
    if (!label) {
      row.appendChild(el('span', 'action', S[id].slice(0, LONG)));
      return;
    }
    row.appendChild(el('span', 'action', S[label[1]].slice(0, LONG)));
    if (label[0] >= 0) { row.appendChild(el('span', 'crumbs', 'in ' + S[label[0]])); }
  }

  function stepRow(position) {
    var index = items[position];
    var size = itemSizes[position];
    var row = el('div', stepClass(index, size));
    row.dataset.index = index;
    var run = size > 1 ? size : (expanded.has(index) ? runLength(index) : 1);
    if (run > 1) {
      row.dataset.group = index;
      row.appendChild(el('span', 'toggle', size > 1 ? '\u25b8' : '\u25be'));
    }
    row.appendChild(el('span', 'seq', '#' + steps.number[index]));
    var clock = clockOf(index);
    if (clock) { row.appendChild(el('span', 'clock', clock)); }
    var origin = originOf(index);
    row.appendChild(el('span', 'origin ' + origin, origin));
    appendLabel(row, steps.actionID[index]);
    if (run > 1) {
      var count = el('span', 'count', '\u00d7' + run);
      row.insertBefore(count, row.querySelector('.crumbs'));
    }
    if (index === divergedAt) {
      row.title = 'the first step that diverges from the recording';
    }
    return row;
  }

  function renderRows() {
    rowsBox.replaceChildren();
    var count = itemCount();
    var first = Math.floor(list.scrollTop / ROW);
    var last = first + Math.ceil(list.clientHeight / ROW) + 1;
    for (var position = positionOfLine(first); position < count; position++) {
      var line = lineStart[position];
      if (line > last) { break; }
      var index = items[position];
      var gap = gapBefore.get(index);
      if (gap) {
        placeRow(el('div', gap.mark ? 'row gap ' + gap.mark : 'row gap', gapText(gap)), line);
        line++;
      }
      placeRow(stepRow(position), line);
      if (itemSizes[position] > 1) { continue; }
      steps.effectIDs[index].forEach(function (id, k) {
        var effect = el('div', 'row effect');
        effect.dataset.index = index;
        effect.appendChild(el('span', 'arrow', '\u21b3 effect'));
        appendLabel(effect, id);
        placeRow(effect, line + 1 + k);
      });
    }
    var tailLine = lineStart[count];
    tailRows.forEach(function (tail, k) {
      if (tailLine + k >= first && tailLine + k <= last) {
        placeRow(el('div', 'row ' + tail.className, tail.text), tailLine + k);
      }
    });
  }

  function scrollToSelected() {
    if (selected < 0) { return; }
    var position = positionOf(selected);
    if (position < 0) { return; }
    var top = lineStart[position] * ROW;
    var bottom = lineStart[position + 1] * ROW;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }

  function toggleGroup(index) {
    if (expanded.has(index)) { expanded.delete(index); } else { expanded.add(index); }
    buildItems(shownSteps);
    layout();
    scrollToSelected();
    renderRows();
  }

  // ---- The filter: words an action or effect must contain (-word: must not), state:path
  // for steps where a state path or value changed, and the origin boxes.

  var shownSteps = null;

  function lowered(id) {
    var text = lower[id];
    if (text === undefined) { text = lower[id] = S[id].toLowerCase(); }
    return text;
  }

  // The value at `at` (a patch's path) in `node`, or undefined.
  function nodeAt(node, at) {
    for (var k = 0; k < at.length && node !== undefined; k++) {
      node = node.m ? memberWritten(node, at[k])
        : node.a ? node.a[Number(at[k])] : undefined;
    }
    return node;
  }

  // What step `index` changed, each as `path.to.field: value`, lower-cased: the lines the
  // diff marks − or + in each value its patch reaches (a patch may write a small object
  // whole: only its lines that changed count).
  function changedTexts(index) {
    var id = steps.changes[index];
    if (id < 0) { return []; }
    var gap = gapBefore.get(index);
    var node = gap ? valueNode(gap.resumed) : stateAt(index - 1);
    var owned = new Set();
    var texts = [];
    valueNode(id).a.forEach(function (op) {
      var at = memberOf(op, 'at').a;
      var names = at.map(function (part) {
        return part.charAt(0) === '"' ? keyText(part) : '[' + part + ']';
      });
      var label = names.length > 0 ? names[names.length - 1] : null;
      var parent = names.slice(0, -1).join('.');
      var before = [];
      var after = [];
      var old = nodeAt(node, at);
      if (old !== undefined) { appendLines(old, label, '', before); }
      node = applyPatch(node, { a: [op] }, owned);
      var now = nodeAt(node, at);
      if (now !== undefined) { appendLines(now, label, '', after); }
      var prefix = parent ? parent + '.' : '';
      var p = 0;
      var q = 0;
      diffRows(before, after).forEach(function (row) {
        if (row[0] === '-') { texts.push(prefix + pathText(before, p)); }
        if (row[0] === '+') { texts.push(prefix + pathText(after, q)); }
        if (row[0] !== '+') { p++; }
        if (row[0] !== '-') { q++; }
      });
    });
    return texts.map(function (text) { return text.toLowerCase(); });
  }

  function indentOf(text) { return text.length - text.replace(/^ +/, '').length; }

  // Line `position` of `lines` under the labels of the containers around it.
  function pathText(lines, position) {
    var text = lines[position];
    var depth = indentOf(text);
    var names = [];
    for (var k = position - 1; k >= 0 && depth > 0; k--) {
      var line = lines[k];
      var indent = indentOf(line);
      if (indent < depth && /[(\[{]$/.test(line)) {
        names.unshift(labelOf(line.slice(indent)));
        depth = indent;
      }
    }
    names.push(text.replace(/^ +/, ''));
    return names.join('.');
  }

  function parseQuery(text) {
    var query = { include: [], exclude: [], state: [], excludeState: [] };
    text.toLowerCase().split(/\s+/).forEach(function (word) {
      if (!word || word === '-') { return; }
      var negative = word.charAt(0) === '-';
      if (negative) { word = word.slice(1); }
      if (word.indexOf('state:') === 0) {
        if (word.length > 6) {
          (negative ? query.excludeState : query.state).push(word.slice(6));
        }
      } else {
        (negative ? query.exclude : query.include).push(word);
      }
    });
    return query;
  }

  function applyFilter() {
    var query = parseQuery($('filter').value);
    var users = $('origin-user').checked;
    var effects = $('origin-effect').checked;
    var active = users !== effects || !users || query.include.length + query.exclude.length +
      query.state.length + query.excludeState.length > 0;
    var found = [];
    var contains = function (word) {
      return function (id) { return lowered(id).indexOf(word) >= 0; };
    };
    var inStep = function (index, word) {
      var has = contains(word);
      return has(steps.actionID[index]) || steps.effectIDs[index].some(has);
    };
    var inChanges = function (changes, word) {
      return changes.some(function (text) { return text.indexOf(word) >= 0; });
    };
    for (var index = 0; index < n; index++) {
      if (!active) { found.push(index); continue; }
      var origin = originOf(index);
      if (origin === 'user' ? !users : !effects) { continue; }
      if (!query.include.every(function (word) { return inStep(index, word); })) { continue; }
      if (query.exclude.some(function (word) { return inStep(index, word); })) { continue; }
      if (query.state.length + query.excludeState.length > 0) {
        var changes = changedTexts(index);
        if (!query.state.every(function (word) { return inChanges(changes, word); })) {
          continue;
        }
        if (query.excludeState.some(function (word) { return inChanges(changes, word); })) {
          continue;
        }
      }
      found.push(index);
    }
    shownSteps = found;
    $('list-info').textContent = active
      ? found.length + ' of ' + plural(n, 'step') + ' match' : plural(n, 'step');
    buildItems(found);
    layout();
    list.scrollTop = 0;
    scrollToSelected();
    renderRows();
  }

  // ---- The selected step.

  function renderEffects(container, ids) {
    container.replaceChildren();
    if (ids.length === 0) {
      container.appendChild(el('li', 'none', 'none'));
      return;
    }
    ids.forEach(function (id) { container.appendChild(el('li', null, S[id])); });
  }

  function renderMarkedEffects(container, texts) {
    var effects = el('ul', 'effects marked');
    // Marked as `replay --verify` marks them: − recorded only, + replayed only.
    if (texts.length === 0) { effects.appendChild(el('li', 'none', 'none')); }
    texts.forEach(function (text) {
      var sign = text.charAt(0);
      effects.appendChild(el('li', sign === '\u2212' ? 'del' : sign === '+' ? 'ins' : null,
        text));
    });
    container.appendChild(effects);
  }

  // A step after the first divergence whose replay differs from the recording: the fields
  // that differ, recorded − and replayed +, and the effects of each side.
  function renderLaterDifference(container, entry) {
    container.appendChild(el('h3', null,
      'The replay differs from the recording at this step'));
    container.appendChild(el('p', 'note', 'The State tab shows the state the log records; ' +
      'the replay goes on from its own state since the first divergence.'));
    if (entry[4] >= 0) { container.appendChild(el('p', 'note', S[entry[4]])); }
    if (entry[1].length > 0) {
      container.appendChild(el('h4', null,
        'What differs (\u2212 recorded, + replayed with the current reducer)'));
      var fields = el('div', 'diff field-diff');
      renderTextDiff(fields, entry[1].map(function (id) { return S[id]; }));
      container.appendChild(fields);
    }
    if (entry[2].length + entry[3].length > 0) {
      var sides = el('div', 'sides');
      [['Recorded effects', entry[2]], ['Replayed effects', entry[3]]].forEach(function (pair) {
        var column = el('div', 'side');
        column.appendChild(el('h4', null, pair[0]));
        renderMarkedEffects(column, pair[1].map(function (id) { return S[id]; }));
        sides.appendChild(column);
      });
      container.appendChild(sides);
    }
  }

  function renderDivergence(container, index) {
    container.replaceChildren();
    var later = index !== divergedAt ? differences.get(index) : undefined;
    container.hidden = index !== divergedAt && !later;
    if (later) { renderLaterDifference(container, later); }
    if (index !== divergedAt) { return; }
    container.appendChild(el('h3', null, 'This step diverges from the recording: ' +
      verify.cause));
    var sides = el('div', 'sides');
    [['Recorded', verify.recorded, verify.recordedEffects],
      ['Replayed with the current reducer', verify.replayed, verify.replayedEffects]]
      .forEach(function (pair) {
        var side = pair[1];
        if (!side) { return; }
        var column = el('div', 'side');
        column.appendChild(el('h4', null, pair[0]));
        column.appendChild(el('p', 'note', side.note));
        var diff = el('div', 'diff');
        if (side.hasState) { renderTextDiff(diff, side.diff); }
        column.appendChild(diff);
        column.appendChild(el('h4', null, 'Effects'));
        renderMarkedEffects(column, pair[2] || []);
        sides.appendChild(column);
      });
    if (verify.fieldDiff) {
      container.appendChild(el('h4', null,
        'What differs (\u2212 recorded, + replayed with the current reducer)'));
      var fields = el('div', 'diff field-diff');
      renderTextDiff(fields, verify.fieldDiff);
      container.appendChild(fields);
    }
    container.appendChild(sides);
  }

  // How the address follows the selection: 'push' adds a history entry (a click, a jump), so
  // Back returns; 'replace' does not (keys, the slider); 'none' leaves it (Back, Forward, an
  // edited #step-N).
  function select(index, fromSlider, how) {
    if (n === 0) { return; }
    if (!advancing) { stop(); }
    index = Math.max(0, Math.min(n - 1, index));
    selected = index;
    $('step-headline').textContent = '#' + steps.number[index] + ' ' + originOf(index) + ' ' +
      S[steps.actionID[index]];
    var badges = $('step-badges');
    badges.replaceChildren();
    badges.appendChild(el('span', 'badge', 'step ' + (index + 1) + ' of ' + n));
    var clock = clockOf(index);
    if (clock) {
      badges.appendChild(el('span', 'badge time', 'at ' + clock));
      var since = steps.since[index];
      if (since >= 0) {
        badges.appendChild(el('span', 'badge time', S[since] + ' after the step before'));
      }
    }
    (notesAt.get(index) || []).forEach(function (note) {
      badges.appendChild(el('span', 'badge note', note));
    });
    if (index === divergedAt) {
      badges.appendChild(el('span', 'badge bad', 'diverges from the recording'));
    } else if (divergedAt >= 0 && index > divergedAt) {
      var verdict = recording.charAt(index);
      if (verdict === 'x') {
        badges.appendChild(el('span', 'badge warn',
          'after the divergence: the replay differs from the recording'));
      } else if (verdict === 's') {
        badges.appendChild(el('span', 'badge dim',
          'after the divergence: the replay agrees with the recording'));
      } else {
        badges.appendChild(el('span', 'badge dim',
          'after the divergence: not checked against the recording'));
      }
    }
    var gap = gapBefore.get(index);
    if (gap) {
      badges.appendChild(el('span', gap.mark ? 'badge ' + gap.mark : 'badge warn', gapText(gap)));
    }
    renderDivergence($('divergence'), index);
    renderEffects($('effects'), steps.effectIDs[index]);
    if (hasScreens) { renderScreen($('screen'), steps.screen[index]); }
    renderDiff($('diff'), index);
    renderTree($('state-tree'), stateLines(index));
    renderAction(index);
    var slider = $('slider');
    if (!fromSlider) { slider.value = String(index + 1); }
    $('position').textContent = 'step ' + (index + 1) + ' of ' + n;
    scrollToSelected();
    renderRows();
    var hash = '#step-' + (index + 1);
    var mode = how || 'replace';
    if (mode === 'none' || location.hash === hash) { return; }
    try {
      if (mode === 'push') {
        window.history.pushState(null, '', hash);
      } else {
        window.history.replaceState(null, '', hash);
      }
    } catch (error) { /* some browsers refuse it for file: pages */ }
  }

  // The step the address names (`#step-N`, 1-based), or -1.
  function stepInAddress() {
    var wanted = /^#step-(\d+)$/.exec(location.hash);
    return wanted ? Number(wanted[1]) - 1 : -1;
  }

  function followAddress() {
    var index = stepInAddress();
    if (index >= 0 && index !== selected) { select(index, false, 'none'); }
  }

  function move(delta) {
    var count = itemCount();
    if (count === 0) { return; }
    var position = positionOf(selected);
    if (position >= 0) {
      position += delta;
    } else {
      position = lowerBound(selected) - (delta < 0 ? 1 : 0);
    }
    position = Math.max(0, Math.min(count - 1, position));
    select(itemAt(position));
  }

  function moveTo(end) {
    var count = itemCount();
    if (count > 0) { select(itemAt(end ? count - 1 : 0)); }
  }

  // ---- Play: walks the list's steps as \u2193 does, at the chosen speed, and stops at the
  // end. Any other move (a key, the slider, a click, the address) stops it. The clock is
  // the window's timers; a test puts its own in (`timeline.useClock`).

  var clock = {
    after: function (milliseconds, action) { return window.setTimeout(action, milliseconds); },
    cancel: function (timer) { window.clearTimeout(timer); }
  };
  var playing = false;
  var advancing = false;
  var timer = null;

  function stepsPerSecond() { return Number($('speed').value) || 2; }

  function atEnd() {
    var position = positionOf(selected);
    return itemCount() === 0 || (position >= 0 ? position : lowerBound(selected) - 1) >=
      itemCount() - 1;
  }

  function schedule() {
    if (timer !== null) { clock.cancel(timer); }
    timer = clock.after(1000 / stepsPerSecond(), tick);
  }

  function tick() {
    timer = null;
    if (!playing) { return; }
    advancing = true;
    try { move(1); } finally { advancing = false; }
    if (atEnd()) { stop(); } else { schedule(); }
  }

  function showPlaying() {
    var button = $('play');
    button.textContent = playing ? '\u275a\u275a Pause' : '\u25b6 Play';
    button.setAttribute('aria-pressed', playing ? 'true' : 'false');
    document.body.dataset.playing = playing ? 'true' : 'false';
  }

  function play() {
    if (playing || itemCount() === 0) { return; }
    if (atEnd()) {
      // From the end, Play starts again at the first step the list shows.
      advancing = true;
      try { moveTo(false); } finally { advancing = false; }
    }
    playing = true;
    showPlaying();
    schedule();
  }

  function stop() {
    if (!playing) { return; }
    playing = false;
    if (timer !== null) { clock.cancel(timer); }
    timer = null;
    showPlaying();
  }

  function togglePlaying() { if (playing) { stop(); } else { play(); } }

  // ---- The header.

  function fact(list, label, value, className) {
    var pair = el('div', 'fact');
    pair.appendChild(el('dt', null, label));
    pair.appendChild(el('dd', className || null, value));
    list.appendChild(pair);
  }

  function renderHeader() {
    $('feature').textContent = visible(data.featureName);
    var facts = $('facts');
    fact(facts, 'Feature', visible(data.featureName));
    fact(facts, 'Created', data.createdAt);
    fact(facts, 'Steps', String(n));
    fact(facts, 'Checkpoints', data.logCheckpointInterval > 0
      ? 'every ' + plural(data.logCheckpointInterval, 'step') : 'none');
    data.facts.forEach(function (pair) { fact(facts, visible(pair[0]), visible(pair[1])); });
    var dropped = 0;
    (data.warnings || []).forEach(function (warning) {
      if (warning.type === 'dropped') { dropped += warning.count; }
    });
    if (dropped > 0) {
      fact(facts, 'Dropped', plural(dropped, 'transition') + ' (the recorder fell behind)',
        'warn');
    }
    var warnings = $('warnings');
    (data.warnings || []).forEach(function (warning) {
      warnings.appendChild(el('li', 'warn', 'Warning: ' + warning.message));
    });
    var status = $('status');
    var end = data.end || { type: 'end' };
    var checked = divergedAt >= 0 ? divergedAt : n;
    if (divergedAt >= 0) {
      status.className = 'status bad';
      var later = 0;
      for (var at = divergedAt + 1; at < n; at++) {
        if (recording.charAt(at) === 'x') { later++; }
      }
      status.appendChild(el('span', null, '\u2717 Step #' + verify.number +
        ' diverges from the recording: ' + verify.cause + '. ' + (later > 0
          ? plural(later, 'later step') + ' also differ' + (later === 1 ? 's' : '') +
            '; the page shows the recorded states from there on. '
          : 'The page shows the recorded states from there on. ')));
      var jump = el('button', null, 'Show step #' + verify.number);
      jump.addEventListener('click', function () { select(divergedAt, false, 'push'); });
      status.appendChild(jump);
    } else if (end.type === 'error') {
      status.className = 'status bad';
      status.textContent = '\u2717 ' + end.message + ' \u2014 the page shows the ' +
        plural(n, 'step') + ' before it' + (n > 0 ? ', which replay cleanly.' : '.');
    } else if (n === 0) {
      status.className = 'status';
      status.textContent = 'The log has no steps.';
    } else {
      status.className = 'status good';
      status.textContent = '\u2713 Replays cleanly: all ' + plural(checked, 'step') +
        ' match the recording, every state and every effect.';
    }
    if (end.type === 'error') {
      tailRows.push({ className: 'end bad', text: '\u2717 ' + end.message });
    }
    var trailing = gapBefore.get(n);
    if (trailing) { tailRows.push({ className: 'gap', text: gapText(trailing) }); }
    (data.warnings || []).forEach(function (warning) {
      if (warning.type !== 'dropped') { tailRows.push({ className: 'end warn',
        text: '\u26a0 ' + warning.message }); }
    });
    if (end.type !== 'error') {
      tailRows.push({ className: 'end', text: '\u2014 end of log \u2014' });
    }
  }

  // ---- Wiring.

  function start() {
    renderHeader();
    var slider = $('slider');
    slider.max = String(Math.max(1, n));
    slider.disabled = n === 0;
    if (!hasScreens) { $('screen-section').hidden = true; }
    var all = new Array(n);
    for (var k = 0; k < n; k++) { all[k] = k; }
    shownSteps = all;
    buildItems(all);
    layout();
    $('list-info').textContent = plural(n, 'step');
    list.addEventListener('scroll', renderRows);
    window.addEventListener('resize', renderRows);
    list.addEventListener('click', function (event) {
      // A collapsed group opens wherever it is clicked; an open one closes at its ▾.
      var group = event.target.closest('[data-group]');
      if (group && (group.classList.contains('group') ||
        event.target.classList.contains('toggle'))) {
        toggleGroup(Number(group.dataset.group));
      }
      var row = event.target.closest('[data-index]');
      if (row) { select(Number(row.dataset.index), false, 'push'); }
    });
    slider.addEventListener('input', function () { select(Number(slider.value) - 1, true); });
    $('play').disabled = n === 0;
    $('play').addEventListener('click', togglePlaying);
    $('speed').addEventListener('change', function () { if (playing) { schedule(); } });
    TABS.forEach(function (name, k) {
      var tab = $('tab-' + name);
      tab.addEventListener('click', function () { showTab(name); });
      tab.addEventListener('keydown', function (event) {
        if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') { return; }
        var next = TABS[(k + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
        showTab(next);
        $('tab-' + next).focus();
        event.preventDefault();
      });
    });
    showTab('state');
    showPlaying();
    $('filter').addEventListener('input', applyFilter);
    $('origin-user').addEventListener('change', applyFilter);
    $('origin-effect').addEventListener('change', applyFilter);
    window.addEventListener('hashchange', followAddress);
    window.addEventListener('popstate', followAddress);
    document.addEventListener('keydown', function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var key = event.key;
      var inFilter = event.target === $('filter');
      if (inFilter && key === 'Escape') {
        $('filter').value = '';
        applyFilter();
        return;
      }
      if (inFilter && key !== 'ArrowDown' && key !== 'ArrowUp') { return; }
      if (key === ' ') {
        // Space plays and pauses, except where it already means something: a button, a
        // box, a menu, a folded section.
        if (event.target.closest('button, select, summary, textarea, input:not([type=range])')) {
          return;
        }
        togglePlaying();
        event.preventDefault();
        return;
      }
      var page = Math.max(1, Math.floor(list.clientHeight / ROW) - 1);
      if (key === 'ArrowDown' || key === 'j') { move(1); }
      else if (key === 'ArrowUp' || key === 'k') { move(-1); }
      else if (key === 'PageDown') { move(page); }
      else if (key === 'PageUp') { move(-page); }
      else if (key === 'Home') { moveTo(false); }
      else if (key === 'End') { moveTo(true); }
      else { return; }
      event.preventDefault();
    });
    if (n > 0) {
      select(Math.max(0, stepInAddress()));
    } else {
      $('step-headline').textContent = 'No steps: the state the log starts from';
      $('diff').appendChild(el('div', 'same', 'No state change.'));
      $('effects').appendChild(el('li', 'none', 'none'));
      if (hasScreens) { renderScreen($('screen'), data.initialScreen); }
      renderTree($('state-tree'), linesOf(valueNode(data.initial)));
      renderAction(-1);
      renderRows();
    }
    window.timeline = {
      select: function (index) { select(index); },
      toggleGroup: function (index) { toggleGroup(index); },
      selected: function () { return selected; },
      playing: function () { return playing; },
      useClock: function (replacement) { clock = replacement; },
      // The lines the State tab shows for step `index` (-1: the initial state).
      stateLines: function (index) {
        return index < 0 ? linesOf(valueNode(data.initial)) : stateLines(index).slice();
      },
      // What the `state:` filter matches for step `index`.
      changedTexts: function (index) { return changedTexts(index); },
      count: n,
      firstShownMs: performance.now()
    };
    document.body.dataset.ready = 'true';
  }

  start();
})();
