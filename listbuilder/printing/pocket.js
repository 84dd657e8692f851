/* listbuilder's pocket copy: the game tracker of one list, with no server and no network.
 *
 * It reads the board (pieces, markers, tracks, rolls, the turn track) from the JSON in
 * #pocket-data, which listbuilder wrote from the same play aids the served play page uses, and
 * keeps the game in localStorage under the list's content, so a reload or a restart keeps it and
 * two lists never share one. A game is its log of taps: the state is the log replayed, and undo
 * takes back the last line, as the served game file does.
 *
 * Plain ES2017, no library, no request of any kind: the file's Content-Security-Policy forbids
 * every connection, and nothing here tries one.
 */
(function () {
  "use strict";

  var source = document.getElementById("pocket-data");
  var app = document.getElementById("tracker-app");
  if (!source || !app) return;
  var board = JSON.parse(source.textContent);
  var storeKey = "listbuilder-pocket:" + board.key;
  var kept = true;
  var game = load();

  function blank() {
    return { log: [], started: new Date().toISOString() };
  }

  function load() {
    try {
      var text = window.localStorage.getItem(storeKey);
      if (text) {
        var saved = JSON.parse(text);
        if (saved && Array.isArray(saved.log)) return saved;
      }
    } catch (e) {
      kept = false;
    }
    return blank();
  }

  function save() {
    try {
      window.localStorage.setItem(storeKey, JSON.stringify(game));
      kept = true;
    } catch (e) {
      kept = false;
    }
  }

  /* The state a log comes to: turn, ended, markers per piece, scores per track. */
  function replay(log) {
    var state = { turn: 1, ended: false, marks: {}, scores: {} };
    board.tracks.forEach(function (t) { state.scores[t.label] = t.start; });
    log.forEach(function (line) { move(state, line, true); });
    return state;
  }

  function setMark(state, piece, marker, value) {
    var marks = state.marks[piece] || (state.marks[piece] = {});
    if (value) marks[marker] = value; else delete marks[marker];
  }

  function move(state, line, forward) {
    if (line.tap === "mark" || line.tap === "unmark") {
      setMark(state, line.piece, line.marker, forward ? line.now : line.was);
      (line.cleared || []).forEach(function (c) { setMark(state, c[0], c[1], forward ? 0 : c[2]); });
    } else if (line.tap === "score") {
      state.scores[line.track] = forward ? line.now : line.was;
    } else if (line.tap === "next-turn") {
      (line.cleared || []).forEach(function (c) { setMark(state, c[0], c[1], forward ? 0 : c[2]); });
      state.turn += forward ? 1 : -1;
    } else if (line.tap === "end") {
      state.ended = forward;
    }
  }

  function controlsOf(piece) { return board.controls[piece.controls]; }
  function value(state, piece, marker) { return (state.marks[piece] || {})[marker] || 0; }

  /* How many of a piece's figures are out: all, when a marker that puts it out is on (or at its
     maximum); else as many as a count of its figures says (board.py's figures_out). */
  function figuresOut(state, piece) {
    var out = 0;
    var controls = controlsOf(piece);
    for (var i = 0; i < controls.length; i++) {
      var c = controls[i], v = c.out ? value(state, piece.key, c.marker) : 0;
      if (v && v >= c.maximum) return piece.figures;
      if (v && c.of_figures) out = Math.max(out, v);
    }
    return out;
  }

  function isOut(state, piece) { return figuresOut(state, piece) >= piece.figures; }

  /* Out of the game: pieces, and how much of the force (its figures, weighted, or its points). */
  function lost(state) {
    var pieces = 0, weight = 0;
    board.pieces.forEach(function (p) {
      var out = figuresOut(state, p);
      if (out >= p.figures) pieces += 1;
      if (out) weight += Math.floor(p.cost * out / Math.max(p.figures, 1));
    });
    return [pieces, weight];
  }

  function rollOf(id) { return board.rolls.filter(function (r) { return r.id === id; })[0]; }

  function die() {
    var byte = new Uint8Array(1);
    do { window.crypto.getRandomValues(byte); } while (byte[0] >= 252);
    return (byte[0] % 6) + 1;
  }

  function face(n) { return board.dice.charAt(n - 1) || String(n); }

  /* A log line in words, as the served play page's log says it. */
  function words(line) {
    if (line.tap === "mark" || line.tap === "unmark") {
      if (line.toggle) return line.marker + " " + (line.now ? "on" : "off") + ": " + line.piece;
      return line.marker + " on " + line.piece + ": " + line.was + " → " + line.now;
    }
    if (line.tap === "score") return line.track + " " + line.was + " → " + line.now;
    if (line.tap === "roll") {
      var roll = rollOf(line.roll);
      return "Rolled " + (roll ? roll.title : line.roll) + ": " + line.faces.join(" and ") + ": " + rollResult(line);
    }
    if (line.tap === "next-turn") {
      var n = (line.cleared || []).length;
      return "Turn " + (line.turn + 1) + " began" + (n ? " (" + n + " markers cleared)" : "");
    }
    return "The game ended";
  }

  function rollResult(line) {
    var roll = rollOf(line.roll);
    if (!roll) return "not a roll of this rule set";
    if (roll.kind === "roll-off") {
      var you = line.faces[0], them = line.faces[1] + (line.bonus || 0);
      var said = "you " + you + ", your opponent " + them + (line.bonus ? " (" + line.faces[1] + " + " + line.bonus + ")" : "");
      return said + ": " + (you === them ? roll.tie : you > them ? roll.higher : roll.lower);
    }
    return roll.faces[String(line.faces[0])];
  }

  /* Each tap checks what the served game checks, makes its log line, and keeps the game. */
  function tap(make) {
    var state = replay(game.log);
    if (game.log.length >= board.bounds.taps) return say("A game keeps at most " + board.bounds.taps + " taps: start a new game.");
    var line = make(state);
    if (!line) return;
    game.log.push(line);
    save();
    draw(words(line));
  }

  function mark(piece, control, by) {
    tap(function (state) {
      var was = value(state, piece.key, control.marker), now = was + by;
      if (now < 0 || now > control.maximum) return null;
      var cleared = [];
      if (by > 0) {  /* what putting it on takes off (hunkering down drops Danger tokens) */
        (control.takes_off || []).forEach(function (m) {
          var v = value(state, piece.key, m);
          if (v) cleared.push([piece.key, m, v]);
        });
      }
      return { tap: by > 0 ? "mark" : "unmark", turn: state.turn, piece: piece.key, marker: control.marker,
        was: was, now: now, toggle: control.kind === "toggle", cleared: cleared };
    });
  }

  function score(track, by) {
    tap(function (state) {
      var was = state.scores[track.label], now = was + by;
      if (now < 0 || now > track.top) return null;
      return { tap: "score", turn: state.turn, track: track.label, was: was, now: now };
    });
  }

  function nextTurn() {
    tap(function (state) {
      if (!board.turn_track || (board.turns !== null && state.turn >= board.turns)) return null;
      var cleared = [];
      board.pieces.forEach(function (p) {
        controlsOf(p).forEach(function (c) {
          var v = value(state, p.key, c.marker);
          if (c.clears && v) cleared.push([p.key, c.marker, v]);
        });
      });
      return { tap: "next-turn", turn: state.turn, cleared: cleared };
    });
  }

  function roll(r) {
    tap(function (state) {
      var faces = r.kind === "roll-off" ? [die(), die()] : [die()];
      var bonus = 0;
      if (r.kind === "roll-off" && r.adds) {
        board.pieces.forEach(function (p) {  /* a figure out of the game no longer counts */
          bonus += Math.min(value(state, p.key, r.adds), p.figures - figuresOut(state, p));
        });
      }
      return { tap: "roll", turn: state.turn, roll: r.id, faces: faces, bonus: bonus };
    });
  }

  function endGame() { tap(function (state) { return state.ended ? null : { tap: "end", turn: state.turn }; }); }

  function undo() {
    var line = game.log.pop();
    if (!line) return;
    save();
    draw("Undone: " + words(line));
  }

  function newGame() {
    if (game.log.length && !window.confirm("Start a new game? This game's markers, scores and log are cleared.")) return;
    game = blank();
    save();
    draw("A new game started");
  }

  /* Drawing: the whole tracker again after each tap (a list is tens of pieces), the focus kept. */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "on") node.addEventListener("click", attrs[k]);
      else if (attrs[k] === true) node.setAttribute(k, "");
      else if (attrs[k] !== false && attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  function button(id, label, on, opts) {
    opts = opts || {};
    return el("button", { type: "button", "data-id": id, "class": opts.cls || null, "aria-label": opts.label || null,
      "aria-pressed": opts.pressed === undefined ? null : String(opts.pressed), "aria-describedby": opts.why || null,
      disabled: !!opts.disabled, title: opts.title || null, on: on, text: label });
  }

  function say(text) {
    var live = document.getElementById("tracker-said");
    if (live) live.textContent = text;
  }

  function draw(said) {
    var focused = document.activeElement && document.activeElement.getAttribute("data-id");
    var state = replay(game.log);
    var over = state.ended;
    var atEnd = board.turns !== null && state.turn >= board.turns;
    var gone = lost(state);
    var outText = board.counts_figures ? gone[1] + " of " + board.size
      : gone[0] + " of " + board.size + (board.size_unit === "points" ? " (" + gone[1] + " points)" : "");
    var outCount = board.counts_figures ? gone[1] : gone[0];
    var halfText = board.half ? (outCount * 2 >= board.size ? " · half or more" : " · half at " + Math.floor((board.size + 1) / 2)) : "";
    var parts = [];

    var turnText = board.turn_track ? "Turn " + state.turn + (board.turns !== null ? " of " + board.turns : "") : "Game";
    parts.push(el("div", { "class": "t-bar" }, [
      el("p", { "class": "t-turn" }, [el("b", { text: turnText }), over ? " · the game has ended" : "",
        " · out of the game: " + outText + halfText]),
      el("div", { "class": "t-buttons" }, [
        board.turn_track ? button("next", "Next turn", nextTurn, { disabled: over || atEnd, why: over || atEnd ? "t-why" : null }) : null,
        button("undo", "Undo", undo, { disabled: !game.log.length, why: game.log.length ? null : "t-why" }),
      ]),
      el("p", { id: "t-why", "class": "t-why", text: over ? "The game has ended: undo the end to play on, or start a new game."
        : !game.log.length ? "Nothing to undo yet." : atEnd ? "The game ends after turn " + board.turns + ": end the game, or undo a turn." : "" }),
    ]));
    parts.push(el("p", { id: "tracker-said", "class": "t-said", role: "status", "aria-live": "polite", text: said || "" }));
    if (!kept) parts.push(el("p", { "class": "t-warn", text: "This browser does not keep the game: it is lost when the page closes." }));
    if (board.turn_text) parts.push(el("p", { "class": "t-note", text: board.turn_text }));
    if (board.half) parts.push(el("p", { "class": "t-note", text: board.half }));

    if (board.tracks.length) {
      parts.push(el("h3", { text: "Scores" }));
      parts.push(el("ul", { "class": "t-tracks" }, board.tracks.map(function (t, i) {
        var v = state.scores[t.label];
        var steps = [];
        t.steps.forEach(function (s) {
          steps.push(button("s" + i + "-" + s, "−" + s, function () { score(t, -s); }, { disabled: over || v - s < 0, label: t.label + ": take away " + s }));
        });
        t.steps.forEach(function (s) {
          steps.push(button("s" + i + "+" + s, "+" + s, function () { score(t, s); }, { disabled: over || v + s > t.top, label: t.label + ": add " + s }));
        });
        return el("li", {}, [el("span", { "class": "t-label", text: t.label }), el("b", { "class": "t-value", text: String(v) }),
          el("span", { "class": "t-steps" }, steps)]);
      })));
    }

    if (board.rolls.length) {
      parts.push(el("h3", { text: "Rolls" }));
      parts.push(el("ul", { "class": "t-rolls" }, board.rolls.map(function (r, i) {
        var last = null;
        game.log.forEach(function (line) { if (line.tap === "roll" && line.roll === r.id) last = line; });
        return el("li", {}, [
          button("r" + i, "Roll: " + r.title, function () { roll(r); }, { disabled: over }),
          last ? el("p", { "class": "t-result" }, [el("span", { "class": "t-dice", "aria-hidden": "true", text: last.faces.map(face).join(" ") }),
            " " + last.faces.join(" and ") + ": " + rollResult(last)]) : el("p", { "class": "t-result t-none", text: r.text || "Not rolled yet." }),
        ]);
      })));
    }

    parts.push(el("h3", { text: "Models" }));
    parts.push(el("ul", { "class": "t-pieces" }, board.pieces.map(function (p, pi) {
      var gone = isOut(state, p);
      var head = el("div", { "class": "t-head" }, [el("span", { "class": "t-name", text: p.key }),
        p.leader ? el("span", { "class": "t-badge", text: "★ " + board.leader }) : null,
        gone ? el("span", { "class": "t-out", text: "out of the game" }) : null,
        el("span", { "class": "t-stats", text: p.stats })]);
      var controls = controlsOf(p).map(function (c, ci) {
        var v = value(state, p.key, c.marker), id = "p" + pi + "c" + ci;
        if (c.kind === "toggle") {
          return button(id, c.marker, function () { mark(p, c, v ? -1 : 1); }, { cls: "t-toggle", pressed: !!v, disabled: over, label: c.marker + ": " + p.key, title: c.text || null });
        }
        return el("span", { "class": "t-count" + (v ? " on" : ""), role: "group", "aria-label": c.marker + ": " + p.key }, [
          button(id + "-", "−", function () { mark(p, c, -1); }, { disabled: over || v <= 0, label: "One " + c.marker + " fewer: " + p.key }),
          el("span", { "class": "t-count-value" }, [c.marker + " ", el("b", { text: String(v) }), c.maximum < board.bounds.count ? "/" + c.maximum : ""]),
          button(id + "+", "+", function () { mark(p, c, 1); }, { disabled: over || v >= c.maximum, label: "One more " + c.marker + ": " + p.key }),
        ]);
      });
      return el("li", { "class": "t-piece" + (gone ? " out" : "") }, [head, controls.length ? el("div", { "class": "t-marks" }, controls) : null]);
    })));

    parts.push(el("h3", { text: "Log" }));
    var lines = game.log.slice(-50).reverse();
    parts.push(lines.length ? el("ol", { "class": "t-log", reversed: true, start: String(game.log.length) }, lines.map(function (line) {
      return el("li", { text: "Turn " + line.turn + ": " + words(line) });
    })) : el("p", { "class": "t-none", text: "No taps yet." }));
    parts.push(el("div", { "class": "t-buttons" }, [
      button("end", "End the game", endGame, { disabled: over }),
      button("new", "New game", newGame),
    ]));

    app.replaceChildren.apply(app, parts);
    app.hidden = false;
    if (focused) {
      var again = app.querySelector('[data-id="' + focused + '"]');
      if (again && !again.disabled) again.focus();
    }
  }

  /* A wide table scrolls sideways on a phone: it takes the keyboard's focus too, named by its caption. */
  function scrollers() {
    document.querySelectorAll(".matrix, .ref-table").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        var caption = box.querySelector("figcaption, caption");
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", caption ? caption.textContent.trim().slice(0, 120) : "A table");
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  draw("");
  scrollers();
  window.addEventListener("resize", scrollers);
  window.addEventListener("storage", function (e) {
    if (e.key === storeKey) { game = load(); draw("The game changed in another tab"); }
  });
})();
