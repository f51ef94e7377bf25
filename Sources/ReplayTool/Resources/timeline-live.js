(function () {
  'use strict';
  // The served page (`replay --serve`): asks the server whether the log has more steps than
  // this page shows (the server answers at once when it has, else after about a second), and
  // when it has, loads the page again, keeping the selected step (the address's #step-N), the
  // filter and the origin boxes; a page showing the last step shows the new last one.
  var token = new URLSearchParams(location.search).get('token') || '';
  var count = window.timeline ? window.timeline.count : 0;
  var KEY = 'replay-serve-view';
  function byId(id) { return document.getElementById(id); }

  function restore() {
    var saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(KEY) || 'null');
      sessionStorage.removeItem(KEY);
    } catch (error) { saved = null; }
    if (!saved) { return; }
    byId('origin-user').checked = saved.user !== false;
    byId('origin-effect').checked = saved.effect !== false;
    byId('filter').value = typeof saved.filter === 'string' ? saved.filter : '';
    byId('filter').dispatchEvent(new Event('input'));
    if (saved.atEnd && count > 0) { window.timeline.select(count - 1); }
  }

  function save() {
    var selected = window.timeline ? window.timeline.selected() : -1;
    try {
      sessionStorage.setItem(KEY, JSON.stringify({
        filter: byId('filter').value,
        user: byId('origin-user').checked,
        effect: byId('origin-effect').checked,
        atEnd: count === 0 || selected === count - 1
      }));
    } catch (error) { /* no storage: the page reloads as it was first opened */ }
  }

  function ask() {
    var address = '/steps?token=' + encodeURIComponent(token) + '&known=' + count;
    fetch(address, { cache: 'no-store', credentials: 'omit' })
      .then(function (response) {
        if (!response.ok) { throw new Error('status ' + response.status); }
        return response.json();
      })
      .then(function (answer) {
        document.body.dataset.live = 'following';
        if (answer.steps !== count) {
          save();
          location.reload();
          return;
        }
        ask();
      })
      .catch(function () {
        // The server stopped (Ctrl-C) or is busy: the page stays as it is, and asks again.
        document.body.dataset.live = 'unreachable';
        setTimeout(ask, 1000);
      });
  }

  restore();
  ask();
})();
