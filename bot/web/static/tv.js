// The TV page's own script (docs/tv.md): follows the chat's server-sent events and draws what they say.
// Everything shown is set as text (names are typed by people: never read as HTML). Nothing is loaded from
// elsewhere. The browser's EventSource reconnects by itself after a dropped stream; when it gives up (the
// server was down), the page asks whether its link still exists and connects again, or says it is gone.
(function () {
  "use strict";
  var root = document.getElementById("tv");
  var status = document.createElement("div");
  var source = null;
  var gone = false;
  var momentTimer = null;
  var connected = false;  // once the stream was open, a drop is "connection lost"; before it, "connecting"
  status.id = "status";
  status.textContent = root.dataset.connecting;
  document.body.appendChild(status);

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text) { node.textContent = text; }
    return node;
  }

  function replace(node, child) {  // replaceChildren, also in an old TV's browser
    while (node.firstChild) { node.removeChild(node.firstChild); }
    if (child) { node.appendChild(child); }
  }

  function list(tag, cls, lines) {
    var node = el(tag, cls);
    (lines || []).forEach(function (line) { node.appendChild(el("li", "", line)); });
    return node;
  }

  function members(game, inLane) {  // one table, or two side by side from 11 members on: up to 20 fit the screen
    var wrap = el("div", "members-wrap");
    var count = game.members.length;
    var columns = count > 10 ? 2 : 1;
    var rows = Math.ceil(count / columns);
    var table = null;
    game.members.forEach(function (m, i) {
      if (i % rows === 0) {
        table = el("table", "members");
        table.style.fontSize = inLane ? "1em" : Math.min(3.4, 17 / rows) + "vw";
        wrap.appendChild(table);
      }
      var row = el("tr", m.now ? "now" : "");
      row.appendChild(el("td", "name", m.name));
      row.appendChild(el("td", "number", m.number));
      row.appendChild(el("td", "team", m.team));
      table.appendChild(row);
    });
    return wrap;
  }

  function gameSection(v) {
    var game = v.game;
    var main = el("section", game.members.length > 10 ? "game many" : "game");
    main.appendChild(el("h1", "head", game.head));
    if (game.turn) {
      var turn = el("div", "turn");
      turn.appendChild(el("div", "label", v.labels.now));
      turn.appendChild(el("div", "who", game.turn));
      turn.appendChild(el("div", "round", game.round));
      if (game.placing) { turn.appendChild(el("div", "placing", game.placing)); }
      main.appendChild(turn);
    }
    if (game.tie) { main.appendChild(el("div", "tie", game.tie)); }
    if (game.winner) { main.appendChild(el("div", "winner", game.winner)); }
    var table = members(game, v.screen === "lane");
    if (v.screen === "lane") { table.className += " fit"; }
    main.appendChild(table);
    if (game.last) {
      var last = el("div", "last");
      last.appendChild(el("span", "label", v.labels.last + " "));
      last.appendChild(el("span", "", game.last));
      main.appendChild(last);
    }
    return main;
  }

  function endSection(v) {  // the end of a game (or a tie that waits): the winner large, the whole ranking
    var game = v.game;
    var main = el("section", "game end");
    var lines = game.ranking || game.result.map(function (line) { return { line: line, members: "" }; });
    var columns = lines.length > 10 ? 2 : 1;
    var ranking = el("ol", "result fit");
    main.appendChild(el("h1", "head", game.head));
    if (game.tie) { main.appendChild(el("div", "tie", game.tie)); }
    if (game.winner) { main.appendChild(el("div", "winner", game.winner)); }
    ranking.style.gridTemplateColumns = "repeat(" + columns + ", minmax(0, 1fr))";
    ranking.style.gridTemplateRows = "repeat(" + Math.ceil(lines.length / columns) + ", auto)";
    lines.forEach(function (entry) {
      var li = el("li", "", entry.line);
      if (entry.members) { li.appendChild(el("div", "members", entry.members)); }
      ranking.appendChild(li);
    });
    main.appendChild(ranking);
    if (v.screen === "idle") { main.appendChild(el("div", "waiting", v.labels.idle)); }
    return main;
  }

  function laneSection(v, game) {  // one lane's part of a split screen: its label, then its game or result
    var lane = el("section", "lane");
    var part = { game: game, labels: v.labels, screen: "lane" };
    lane.appendChild(el("div", "lane-label", game.lane));
    lane.appendChild(game.result && game.result.length ? endSection(part) : gameSection(part));
    return lane;
  }

  function fits(node) {
    return node.scrollHeight <= node.clientHeight + 1 && node.scrollWidth <= node.clientWidth + 1;
  }

  function fit() {  // the largest type (up to its CSS size) at which each .fit box shows all it holds
    Array.prototype.forEach.call(document.querySelectorAll(".fit"), function (node) {
      node.style.fontSize = "";
      var high = parseFloat(getComputedStyle(node).fontSize);
      var low = 6;
      if (fits(node)) { return; }
      for (var i = 0; i < 12; i++) {
        var mid = (low + high) / 2;
        node.style.fontSize = mid + "px";
        if (fits(node)) { low = mid; } else { high = mid; }
      }
      node.style.fontSize = low + "px";
    });
  }

  function render(v) {
    var page = el("div", "page " + v.screen);
    document.documentElement.lang = v.lang;
    document.title = v.title;
    if (v.screen === "lanes") {  // several club games at once: the screen split between the lanes
      page.className = "page lanes";
      page.style.gridTemplateColumns = "repeat(" + Math.min(2, v.lanes.length) + ", minmax(0, 1fr))";
      page.style.gridTemplateRows = "repeat(" + Math.ceil(v.lanes.length / 2) + ", minmax(0, 1fr))";
      v.lanes.forEach(function (game) { page.appendChild(laneSection(v, game)); });
      replace(root, page);
      fit();
      return;
    }
    if (v.game && v.game.result && v.game.result.length) {
      page.appendChild(endSection(v));
    } else if (v.screen === "idle") {
      var idle = el("section", "game idle");
      idle.appendChild(el("div", "waiting big", v.labels.idle));
      page.appendChild(idle);
    } else {
      page.appendChild(gameSection(v));
    }
    var evening = el("aside", "evening fit");
    evening.appendChild(el("h2", "", v.evening.head));
    evening.appendChild(list("ul", "games", v.evening.games));
    evening.appendChild(list("ul", "leaders", v.evening.leaders));
    page.appendChild(evening);
    replace(root, page);
    fit();
  }

  window.addEventListener("resize", fit);

  function celebrate(m) {
    var old = document.getElementById("moment");
    if (old) { old.remove(); }
    var box = el("div", "moment " + m.kind);
    box.id = "moment";
    box.appendChild(el("div", "what", m.text));
    box.appendChild(el("div", "who", m.name));
    document.body.appendChild(box);
    clearTimeout(momentTimer);
    momentTimer = setTimeout(function () { box.remove(); }, 4000);
  }

  function showGone() {
    gone = true;
    if (source) { source.close(); }
    status.textContent = root.dataset.gone;
    status.className = "shown gone";
    replace(root, null);
  }

  function check() {  // the browser stopped retrying: is the link still there (a restart) or gone (/tv new)?
    fetch(location.pathname, { method: "HEAD", cache: "no-store" }).then(function (r) {
      if (r.status === 404) { showGone(); } else { setTimeout(connect, 1000); }
    }, function () { setTimeout(check, 1000); });
  }

  function connect() {
    if (gone) { return; }
    source = new EventSource(location.pathname.replace(/\/$/, "") + "/events");
    source.addEventListener("open", function () { connected = true; status.className = ""; });
    source.addEventListener("state", function (e) {
      connected = true;
      status.className = "";
      render(JSON.parse(e.data));
    });
    source.addEventListener("moment", function (e) { celebrate(JSON.parse(e.data)); });
    source.addEventListener("gone", showGone);
    source.addEventListener("error", function () {
      if (gone) { return; }
      status.textContent = connected ? root.dataset.offline : root.dataset.connecting;
      status.className = "shown";
      if (source.readyState === EventSource.CLOSED) { source.close(); check(); }
    });
  }

  connect();
}());
