/* The dealer tablet: seat map, board, pots, the legal actions with their exact amounts.
 *
 * Every amount offered comes from the engine's legal options in the snapshot (never computed here).
 * Each input carries a client_action_id and the hand's expected_seq; a request that fails on the
 * way is shown plainly and can be sent again with the same id, which the server answers without
 * acting twice. */
(function () {
  "use strict";
  var L = window.Live, el = L.el;
  var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var RANKS = "23456789TJQKA";

  function cardFace(code, cls) {
    if (!code) return el("span", { class: "card-face slot " + (cls || "") });
    var rank = code[0] === "T" ? "10" : code[0], suit = code[1];
    return el("span", { class: "card-face " + (suit === "h" || suit === "d" ? "red " : "") + (cls || ""), "data-card": code, text: rank + SUITS[suit] });
  }
  // An input sent over the socket and not answered within this is treated as lost (retry is safe).
  var ANSWER_MS = 6000;
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "t" + Date.now().toString(36) + Math.random().toString(36).slice(2, 10);
  }

  function Tablet(root) {
    this.root = root;
    this.T = L.labels();
    this.tableId = Number(root.getAttribute("data-table"));
    this.csrf = root.getAttribute("data-csrf");
    this.data = null;
    this.busy = false;
    this.failed = null;
    this.amount = null;
    this.amountOpen = false;
    this.picked = [];
    var self = this;
    // What the tablet shows of its tournament (the level, the clock's state) and that part's version:
    // it comes inside each table snapshot and, on a level change, alone ("tablets", shared by every
    // tablet of the tournament); the newer of the two is shown.
    this.tournamentPart = null;
    this.socket = new L.LiveSocket(root.getAttribute("data-ws"), {
      snapshot: function (data) { self.update(data); },
      status: function (state) { self.status(state); },
      parts: { tablets: function (data, msg) { self.updateTournament(data, msg.version); } },
      message: function (msg) {
        if (msg.type === "answer") self.answered(msg);
        // A server from before socket inputs (a rolling upgrade): it does not know them, send over HTTP.
        else if (msg.type === "error" && msg.code === "unknown_message" && self.pending) self.answered({ ref: self.pending.ref, http: true });
      },
      // A lost server is said within 3 s: the server's heartbeat every 2 s, 1 s late (issue 15 item 7).
      beatMs: 2000,
      answerMs: 1000,
    });
    setInterval(function () { if (self.data) self.tick(); }, 1000);
    this.q("[data-role=call-floor]").addEventListener("click", function () {
      self.send(self.T.call_floor, "/tablet/" + self.tableId + "/floor/", {});
    });
  }

  Tablet.prototype.q = function (sel) { return this.root.querySelector(sel); };

  Tablet.prototype.status = function (state) {
    var T = this.T, overlay = this.q("[data-role=overlay]");
    this.q("[data-role=connection]").textContent = state === "offline" ? T.offline : "";
    var wasOffline = this.offline;
    this.offline = state === "offline";
    // The socket dropped with an input on it: say so now, not when its answer would have been late.
    if (this.offline && this.pending) this.unanswered(null);
    this.root.setAttribute("data-offline", this.offline ? "true" : "false");
    this.renderOffline();
    if (wasOffline && state === "online" && this.queued) {
      // Back: the input tapped while offline goes now, with its own client_action_id and the
      // expected_seq it was made for (the server refuses it, 409, if the hand moved on meanwhile).
      var queued = this.queued;
      this.queued = null;
      this.send(queued.label, queued.url, queued.body);
    }
    if (state === "revoked" || state === "unauthorized") {
      overlay.textContent = state === "revoked" ? T.revoked : T.unauthorized;
      overlay.hidden = false;
      this.root.setAttribute("data-cut-off", "true");
    }
  };

  Tablet.prototype.updateTournament = function (part, version) {
    if (this.tournamentPart && version <= this.tournamentPart.version) return;
    this.tournamentPart = { version: version, tournament: part.tournament, level: part.level, clock: part.clock, color_up: part.color_up };
    if (!this.data) return;
    this.data.tournament = part.tournament;
    this.data.level = part.level;
    this.data.clock = part.clock;
    this.data.color_up = part.color_up;
    this.root.setAttribute("data-tournament-version", String(version));
    this.render();
  };

  Tablet.prototype.update = function (data) {
    var part = this.tournamentPart, embedded = data.tournament_version;
    if (part && typeof embedded === "number" && embedded < part.version) {
      data.tournament = part.tournament;
      data.level = part.level;
      data.clock = part.clock;
      data.color_up = part.color_up;
    } else if (typeof embedded === "number") {
      this.tournamentPart = { version: embedded, tournament: data.tournament, level: data.level, clock: data.clock, color_up: data.color_up };
      this.root.setAttribute("data-tournament-version", String(embedded));
    }
    var oldHand = this.data && this.data.hand, newHand = data.hand;
    var changed = !oldHand || !newHand || oldHand.id !== newHand.id || oldHand.seq !== newHand.seq;
    this.data = data;
    if (changed) { this.amount = null; this.amountOpen = false; this.amountTyped = false; this.picked = []; this.foldAsked = false; }
    this.root.setAttribute("data-version", String(this.socket.version));
    this.render();
  };

  /* ---- requests ---- */
  Tablet.prototype.renderOffline = function () {
    var T = this.T, banner = this.q("[data-role=offline-banner]");
    banner.hidden = !this.offline;
    banner.textContent = !this.offline ? "" : this.queued
      ? L.interp(T.offline_queued, { input: this.queued.label })
      : T.offline_banner;
  };

  Tablet.prototype.send = function (label, url, body) {
    if (this.busy) return;
    if (this.offline) {
      // One input may wait for the server: the next one depends on what the server makes of it.
      if (this.queued) return;
      this.queued = { label: label, url: url, body: body };
      this.renderOffline();
      this.render();
      return;
    }
    this.busy = true;
    this.failed = null;
    this.render();
    var message = this.viaSocket === false ? null : socketMessage(url, body);
    if (message && this.socket.ws && this.socket.ws.readyState === 1) this.sendOverSocket(label, url, body, message);
    else this.post(label, url, body);
  };

  // The hand's inputs (an action, cards, a show or muck, the deal) go over the tablet's socket:
  // the dealing API's checks and answers without an HTTP request each (screens/tablet_inputs.py), and
  // the snapshot that shows the input follows the answer. Anything else goes over HTTP.
  function socketMessage(url, body) {
    var hand = /^\/api\/hands\/(\d+)\/actions\/$/.exec(url);
    if (hand) return { type: "input", hand: Number(hand[1]), input: body };
    if (url === "/api/hands/") return { type: "deal", input: body };
    return null;
  }

  Tablet.prototype.sendOverSocket = function (label, url, body, message) {
    var self = this, ref = newId();
    message.ref = ref;
    this.pending = { ref: ref, label: label, url: url, body: body };
    // No answer in time (the socket dropped, the server is stuck): as a request whose answer was lost.
    this.pending.timer = setTimeout(function () { self.unanswered(ref); }, ANSWER_MS);
    this.socket.send(message);
  };

  Tablet.prototype.unanswered = function (ref) {
    var pending = this.pending;
    if (!pending || (ref && pending.ref !== ref)) return;
    clearTimeout(pending.timer);
    this.pending = null;
    this.busy = false;
    // The input may or may not have arrived: the same client_action_id makes the retry safe.
    this.failed = { label: pending.label, message: this.T.offline, url: pending.url, body: pending.body, retry: true };
    this.render();
  };

  Tablet.prototype.answered = function (msg) {
    var pending = this.pending;
    if (!pending || msg.ref !== pending.ref) return;
    clearTimeout(pending.timer);
    this.pending = null;
    this.busy = false;
    if (msg.http) {
      // Staff on a tablet page: their session is checked at each HTTP request (and an older server).
      this.viaSocket = false;
      this.send(pending.label, pending.url, pending.body);
      return;
    }
    this.settle(msg.status, msg.body || {}, "", pending, true);
  };

  Tablet.prototype.post = function (label, url, body) {
    var self = this, T = this.T, sent = { label: label, url: url, body: body };
    // No token in the page: the tablet's HttpOnly device cookie authenticates it, X-Device-Table says
    // which table's cookie, and the CSRF token proves the request comes from this page (staff using
    // a tablet page are authenticated by their session the same way).
    var headers = { "Content-Type": "application/json", Accept: "application/json",
                    "X-Device-Table": String(this.tableId), "X-CSRFToken": this.csrf };
    fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body), credentials: "same-origin" })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (json) {
          self.busy = false;
          self.settle(response.status, json, response.statusText, sent, false);
        });
      })
      .catch(function () {
        self.busy = false;
        // The request may or may not have arrived: the same client_action_id makes the retry safe.
        self.failed = { label: label, message: T.offline, url: url, body: body, retry: true };
        self.render();
      });
  };

  // An input's answer, over HTTP or the socket (the same statuses and bodies).
  Tablet.prototype.settle = function (status, json, statusText, sent, viaSocket) {
    if (status >= 200 && status < 300) {
      this.failed = null;
      if (!viaSocket) {
        // The snapshot that shows this input: its own announcement brings it, the server sends it at
        // once if it came first, and builds it if the announcement was lost. (Over the socket the
        // server sends it after the answer unasked.)
        var hand = json.hand || json;
        var seq = typeof json.last_seq === "number" ? json.last_seq : hand.seq;
        var open = this.socket.ws && this.socket.ws.readyState === 1;
        if (open && typeof hand.id === "number" && typeof seq === "number") {
          this.socket.send({ type: "refresh", hand: hand.id, seq: seq });
        } else {
          this.socket.refresh();
        }
      }
    } else {
      var stale = status === 409 && json.code === "stale";
      // A refused request changed nothing; say why. Retrying helps only with server trouble.
      this.failed = { label: sent.label, message: json.detail || statusText || String(status), url: sent.url,
                      body: sent.body, retry: status >= 500 };
      // The state to redraw from (over the socket the server sends it with the answer).
      if (stale && !viaSocket) this.socket.refresh();
    }
    this.render();
  };

  Tablet.prototype.input = function (label, body) {
    var hand = this.data.hand;
    body.client_action_id = newId();
    body.expected_seq = hand.seq;
    this.send(label, "/api/hands/" + hand.id + "/actions/", body);
  };

  /* ---- rendering ---- */
  Tablet.prototype.render = function () {
    var data = this.data;
    if (!data) return;
    var T = this.T, hand = data.hand, state = hand ? hand.state : null;
    var live = hand && hand.status === "running";
    var level = data.level, onBreak = data.tournament.status === "on_break";
    // The level as the clock shows it (the BB ante called so); on a break, "Break" before the level
    // that follows it (the next hand is dealt at that one, R8.2).
    var stakes = level ? (data.tournament.betting === "fixed_limit" && level.small_bet ?
      L.fmtNumber(level.small_bet) + "/" + L.fmtNumber(level.big_bet) : L.fmtNumber(level.small_blind) + "/" + L.fmtNumber(level.big_blind)) +
      (level.ante ? " · " + (level.ante_kind === "big_blind" ? T.bb_ante : T.ante) + " " + L.fmtNumber(level.ante) : "") : "";
    this.q("[data-role=level]").textContent = (onBreak ? T.on_break + " → " : "") + stakes;
    this.root.setAttribute("data-on-break", onBreak ? "true" : "false");
    this.tick();
    this.q("[data-role=hand-label]").textContent = hand ? T.hand + " #" + hand.number : "";
    this.q("[data-role=commitment]").textContent = hand && hand.seed_commitment ? T.commitment + " " + hand.seed_commitment : "";
    // The seats are the table as it is now: the hand's data is shown on a seat only while that hand
    // runs and only for the player dealt in there; a finished hand's result stays in its own box.
    this.renderSeats(data, live ? state : null, live ? hand.entries : null);
    this.markWinners(data, hand && !live ? state : null, hand && hand.entries);
    this.renderBoard(state, live);
    this.renderNotices(data);
    this.renderActions(data, live ? state : null);
    this.renderResult(hand && !live ? state : null);
  };

  /* The time left in the level (or the break), counted down from "level ends at" each second. */
  Tablet.prototype.secondsLeft = function () {
    var clock = this.data && this.data.clock;
    if (!clock) return null;
    if (clock.running && clock.level_ends_at) return Math.max(0, (clock.level_ends_at - this.socket.now()) / 1000);
    return typeof clock.remaining === "number" ? clock.remaining : null;
  };

  Tablet.prototype.tick = function () {
    var left = this.secondsLeft(), node = this.q("[data-role=time-left]");
    node.textContent = left === null ? "" : L.interp(this.T.time_left, { time: L.fmtClock(left) });
    var lastHand = left !== null && left <= 90 && this.data.clock.running && this.data.tournament.status === "running";
    if (lastHand !== this.lastHandShown) { this.lastHandShown = lastHand; this.renderNotices(this.data); }
  };

  /* A finished hand's winners, highlighted on their seats while they still sit there. */
  Tablet.prototype.markWinners = function (data, state, entries) {
    var result = state && state.result, felt = this.q("[data-role=felt]");
    if (!result || !entries) return;
    var won = {};
    result.pots.forEach(function (pot) { pot.awards.forEach(function (a) { won[a.seat] = true; }); });
    data.seats.forEach(function (seat) {
      if (!won[seat.number] || String(entries[seat.number]) !== String(seat.entry_id)) return;
      var node = felt.querySelector('.seat[data-seat="' + seat.number + '"]');
      if (node) node.classList.add("winner");
    });
  };

  Tablet.prototype.renderSeats = function (data, state, entries) {
    var felt = this.q("[data-role=felt]"), T = this.T;
    felt.querySelectorAll(".seat").forEach(function (n) { n.remove(); });
    var count = data.table.seats || data.seats.length, players = {}, sitting = {};
    data.seats.forEach(function (seat) { sitting[seat.number] = seat.entry_id; });
    (state ? state.players : []).forEach(function (p) {
      // A player moved away mid-hand is not shown on the seat of the player who sits there now.
      if (!entries || String(entries[p.seat]) === String(sitting[p.seat])) players[p.seat] = p;
    });
    // In a hand, its positions; between hands, the next hand's (shown before the first hand too).
    var next = data.table.next_positions;
    var button = state ? state.button_seat : (next ? next.button : null);
    var sb = state ? state.small_blind_seat : (next ? next.small_blind : null);
    var bb = state ? state.big_blind_seat : (next ? next.big_blind : null);
    var toAct = state && state.phase === "action" ? state.to_act : null;
    data.seats.forEach(function (seat) {
      var angle = (Math.PI / 2) + (seat.number - 1) * (2 * Math.PI / count);
      var x = 50 + 41 * Math.cos(angle), y = 50 + 38 * Math.sin(angle);
      var p = players[seat.number];
      var marks = el("div", { class: "marks" }, [
        seat.number === button ? el("span", { class: "mark btn-mark", title: T.button, text: "D" }) : null,
        seat.number === sb ? el("span", { class: "mark sb", text: T.sb }) : null,
        seat.number === bb ? el("span", { class: "mark bb", text: T.bb }) : null,
      ]);
      var showing = state && state.phase === "show" && state.to_show === seat.number;
      var cls = "seat" + (!seat.entry_id ? " empty" : "") + (p && p.folded ? " folded" : "") + (p && p.mucked ? " mucked" : "") +
        (seat.number === toAct || showing ? " to-act" : "");
      var stack = p ? p.stack : seat.chips;
      var node = el("div", { class: cls, "data-seat": seat.number, style: { left: x + "%", top: y + "%" } }, [
        marks,
        el("div", { class: "name", text: seat.number + " · " + (seat.name || "—") }),
        el("div", { class: "stack", text: stack === null || stack === undefined ? "" : L.fmtNumber(stack) + (p && p.all_in ? " · " + T.all_in_label : "") }),
        el("div", { class: "bet", "data-role": "bet", text: p && p.bet ? L.fmtNumber(p.bet) : (p && p.mucked ? T.mucked : (p && p.folded ? T.folded : "")) }),
        p && p.cards ? el("div", { class: "shown" }, p.cards.map(function (c) { return cardFace(c, "small"); })) : null,
      ]);
      felt.appendChild(node);
    });
  };

  Tablet.prototype.renderBoard = function (state, live) {
    var T = this.T, board = this.q("[data-role=board]"), pots = this.q("[data-role=pots]"), street = this.q("[data-role=street]");
    board.innerHTML = ""; pots.innerHTML = ""; street.textContent = "";
    if (!state) { street.textContent = T.no_hand; return; }
    var preflop = state.street === "preflop";
    for (var i = 0; i < 5; i++) {
      // R4.2: the first flop card is dealt face up before any betting.
      board.appendChild(cardFace(state.board[i], i === 0 && preflop && state.board[0] ? "exposed" : ""));
    }
    if (preflop && state.board[0] && live) street.textContent = T.exposed;
    // During a betting round: the pots collected from the rounds before, with the bets still in front
    // of the players (on the seats) apart; once the round is over, the pots as they are (R6.1).
    var betting = state.phase === "action" && state.players.some(function (p) { return p.bet > 0; });
    var potList = (betting ? state.collected_pots : state.pots) || [];
    var allIn = state.players.some(function (p) { return p.all_in && !p.folded; });
    if (allIn && potList.length > 1) {
      // R6.1: with unequal all-ins, each pot is shown with what it holds.
      potList.forEach(function (pot, i) {
        pots.appendChild(el("span", { class: "pot", "data-role": "pot", text: (i === 0 ? T.main_pot : T.side_pot + " " + i) + " " + L.fmtNumber(pot.amount) }));
      });
    } else if (potList.length) {
      var total = potList.reduce(function (sum, pot) { return sum + pot.amount; }, 0);
      if (total) pots.appendChild(el("span", { class: "pot", "data-role": "pot", text: T.pot + " " + L.fmtNumber(total) }));
    }
  };

  /* The chip race at this table (R8.7): every card dealt, and who won a chip or was saved one. */
  function chipRace(race, T) {
    var rows = race.players.map(function (p) {
      var outcome = p.won ? T.race_won : p.saved ? T.race_saved : "";
      return el("li", { class: p.won || p.saved ? "race-winner" : "", "data-role": "race-row" }, [
        el("span", { text: T.seat + " " + p.seat + " · " + p.name + ": " }),
        el("span", { class: "race-cards", text: p.cards.join(" ") }),
        outcome ? el("strong", { text: " — " + outcome }) : null,
      ]);
    });
    return el("div", { class: "notice chip-race", "data-role": "chip-race" }, [
      el("div", { text: L.interp(T.race_title, { old: race.old_chip, chip: race.new_chip }) }),
      el("ol", {}, rows),
    ]);
  }

  Tablet.prototype.renderNotices = function (data) {
    var T = this.T, self = this, box = this.q("[data-role=notices]");
    box.innerHTML = "";
    if (data.wait) box.appendChild(el("div", { class: "notice wait", "data-role": "wait", text: data.wait }));
    if (data.tournament.status === "on_break") {
      box.appendChild(el("div", { class: "notice wait", "data-role": "break", text: T.break_no_deal }));
      if (data.color_up && data.color_up.length) {
        box.appendChild(el("div", { class: "notice", "data-role": "color-up",
          text: L.interp(T.color_up_now, { chips: data.color_up.map(L.fmtNumber).join(", ") }) }));
      }
    }
    else if (this.lastHandShown) box.appendChild(el("div", { class: "notice", "data-role": "last-hand", text: T.last_hand }));
    if (data.table.halted_reason) box.appendChild(el("div", { class: "notice", text: T.halted + ": " + data.table.halted_reason }));
    // One compact list of the seat moves, a line each (it scrolls, never covering the actions).
    if (data.moves.length) {
      box.appendChild(el("ul", { class: "moves", "data-role": "moves", "aria-label": T.move }, data.moves.map(function (move) {
        var text = move.outgoing
          ? L.interp(T.move_to, { name: move.name, table: move.to_table, seat: move.to_seat })
          : L.interp(T.move_in, { name: move.name, table: move.from_table || "–", seat: move.to_seat });
        return el("li", { "data-role": "move", "data-status": move.status }, [
          el("span", { class: "what", text: text }),
          move.status === "pending" ? el("span", { class: "pill warn", text: T.after_hand }) : null,
          move.status === "done" ? el("button", { "data-action": "move-done", text: T.acknowledge, onclick: function () {
            self.send(T.acknowledge, "/tablet/" + self.tableId + "/moves/" + move.id + "/acknowledge/", {});
          } }) : null,
        ]);
      })));
    }
    if (data.chip_race && data.chip_race.players && data.chip_race.players.length) box.appendChild(chipRace(data.chip_race, T));
    if (data.floor_called) box.appendChild(el("div", { class: "notice", text: T.floor_called }));
    this.q("[data-role=call-floor]").disabled = !!data.floor_called;
    if (this.failed) {
      var failed = this.failed;
      box.appendChild(el("div", { class: "notice fail", "data-role": "failure", role: "alert" }, [
        el("div", { text: T.failed + " (" + failed.label + "): " + failed.message }),
        failed.retry ? el("button", { class: "big", "data-role": "retry", text: T.retry, onclick: function () {
          self.send(failed.label, failed.url, failed.body);
        } }) : null,
      ]));
    }
  };

  /* "Undo last input", approved by the floor person at the table with the floor's PIN (item 6). */
  Tablet.prototype.renderUndo = function (data) {
    var T = this.T, self = this, box = this.q("[data-role=undo-box]"), hand = data.hand;
    var live = hand && hand.status === "running";
    // While the floor types the reason and the PIN, a push (the hand's own next snapshot, a level
    // change) must not wipe what is typed: the open form stays as it is for the same hand.
    if (live && this.undoOpen && box.getAttribute("data-open-for") === String(hand.id) && !box.hidden) return;
    box.innerHTML = "";
    box.removeAttribute("data-open-for");
    box.hidden = !live;
    if (!live) { this.undoOpen = false; return; }
    if (!this.undoOpen) {
      box.appendChild(el("button", { class: "secondary", "data-action": "undo", text: T.undo, onclick: function () {
        self.undoOpen = true; self.render();
      } }));
      return;
    }
    var reason = el("input", { name: "reason", maxlength: 500, placeholder: T.undo_reason, "aria-label": T.undo_reason });
    var pin = el("input", { name: "pin", type: "password", inputmode: "numeric", autocomplete: "off", maxlength: 8,
      placeholder: T.undo_pin, "aria-label": T.undo_pin });
    box.setAttribute("data-open-for", String(hand.id));
    box.appendChild(el("p", { class: "muted", text: T.undo_help }));
    box.appendChild(reason);
    box.appendChild(pin);
    box.appendChild(el("div", { class: "row" }, [
      el("button", { class: "danger", "data-action": "undo-confirm", text: T.undo_confirm, onclick: function () {
        self.undoOpen = false;
        // The input the floor saw when the form opened: if another came in since, the server says so (409).
        self.send(T.undo, "/tablet/" + self.tableId + "/undo/", { pin: pin.value, reason: reason.value, expected_seq: hand.seq });
      } }),
      el("button", { class: "secondary", "data-action": "undo-cancel", text: T.cancel, onclick: function () {
        self.undoOpen = false; self.render();
      } }),
    ]));
  };

  Tablet.prototype.renderActions = function (data, state) {
    var T = this.T, self = this, box = this.q("[data-role=actions]"), toAct = this.q("[data-role=to-act]");
    this.renderUndo(data);
    var amountBox = this.q("[data-role=amount-box]"), pickerBox = this.q("[data-role=picker-box]");
    box.innerHTML = ""; toAct.textContent = ""; amountBox.hidden = true; pickerBox.hidden = true;
    var busy = this.busy || !!this.queued;  // an input waits for the server: nothing else until it is answered
    function button(text, cls, onclick, attrs) {
      var b = el("button", Object.assign({ class: cls, text: text, onclick: onclick }, attrs || {}));
      b.disabled = busy;
      box.appendChild(b);
      return b;
    }
    if (!state) {
      var blocked = data.wait || !!data.table.halted_reason || data.tournament.status === "on_break";
      if (!this.dealMode) this.dealMode = (data.hand && data.hand.deal_mode) || "seeded";
      var mode = el("select", { class: "wide", "data-role": "deal-mode", "aria-label": T.deal_mode }, [
        el("option", { value: "seeded", text: T.seeded }), el("option", { value: "entered", text: T.entered })]);
      mode.value = this.dealMode;
      mode.addEventListener("change", function () { self.dealMode = mode.value; self.render(); });
      box.appendChild(mode);
      box.appendChild(el("p", { class: "mode-help", "data-role": "mode-help",
        text: this.dealMode === "entered" ? T.mode_entered_help : T.mode_seeded_help }));
      button(T.start_hand, "big wide", function () {
        self.send(T.start_hand, "/api/hands/", { table: self.tableId, deal_mode: self.dealMode });
      }, { "data-action": "start" }).disabled = busy || blocked;
      return;
    }
    var seatName = function (n) {
      var s = data.seats.filter(function (x) { return x.number === n; })[0];
      return T.seat + " " + n + (s && s.name ? " · " + s.name : "");
    };
    var hold = data.hand && data.hand.hold;
    if (state.phase === "face_up") {
      // R6.2: all-in and no more betting: every hand still in is turned face up first.
      toAct.textContent = T.face_up_hint;
      button(T.face_up, "big wide", function () { self.input(T.face_up, { type: "face_up" }); }, { "data-action": "face-up" });
      return;
    }
    if (state.phase === "board" && hold) {
      // Hand-for-hand: the run-out waits until the floor releases it from the console (R8.6).
      toAct.textContent = T.run_out;
      box.appendChild(el("div", { class: "notice wait", "data-role": "hold", text: hold }));
      return;
    }
    if (state.phase === "board" && state.deal_next) {
      var dealText = T["deal_" + state.deal_next];
      toAct.textContent = T.run_out;
      button(dealText, "big wide", function () { self.input(dealText, { type: "deal" }); }, { "data-action": "deal", "data-street": state.deal_next });
      return;
    }
    if (state.phase === "board") {
      // In the floor's words: the exposed first flop card, then the flop's other cards, the turn, the river.
      var dealt = state.board.filter(function (c) { return !!c; }).length;
      toAct.textContent = dealt === 0 ? T.board_exposed : dealt < 3 ? T.board_flop : dealt === 3 ? T.board_turn : T.board_river;
      this.renderPicker(state, state.board_needed, function (cards) { self.input(T.board_cards, { type: "board", cards: cards }); });
      return;
    }
    if (state.phase === "show") {
      var shower = data.seats.filter(function (x) { return x.number === state.to_show; })[0];
      toAct.textContent = (state.runout ? "R6.2 · " : "") + L.interp(T.seat_shows, { seat: state.to_show, name: shower && shower.name ? shower.name : "" });
      this.renderPicker(state, 5, function (cards) { self.input(T.shows, { type: "show", seat: state.to_show, cards: cards }); });
      if (!state.must_show) button(T.muck, "fold wide", function () { self.input(T.muck, { type: "muck", seat: state.to_show }); });
      return;
    }
    var o = state.options;
    if (!o) return;
    toAct.textContent = T.to_act + ": " + seatName(o.seat);
    var act = function (label, action, amount) {
      var body = { type: "action", seat: o.seat, action: action };
      if (amount !== undefined) body.amount = amount;
      self.input(label, body);
    };
    if (o.actions.indexOf("fold") >= 0) {
      // Folding when checking is free is almost always a mis-tap: the first tap asks, the second folds.
      var checkFree = o.actions.indexOf("check") >= 0;
      var asked = checkFree && this.foldAsked;
      button(asked ? T.fold_confirm : T.fold, "fold", function () {
        if (checkFree && !self.foldAsked) { self.foldAsked = true; self.render(); return; }
        self.foldAsked = false;
        act(T.fold, "fold");
      }, { "data-action": "fold", "data-asked": asked ? "true" : "false" });
    }
    if (o.actions.indexOf("check") >= 0) button(T.check, "check", function () { act(T.check, "check"); }, { "data-action": "check" });
    if (o.actions.indexOf("call") >= 0) {
      var callText = T.call + " " + L.fmtNumber(o.call) + (o.call_all_in ? " · " + T.all_in_label : "");
      button(callText, "call", function () { act(callText, "call"); }, { "data-action": "call", "data-amount": o.call });
    }
    if (o.raise_kind && o.min_to !== null && o.max_to !== null) {
      var verb = o.raise_kind === "bet" ? T.bet : T.raise_to;
      var allInTo = o.player_bet + o.stack;
      var allInNote = function (amount) { return amount === allInTo ? " · " + T.all_in_label : ""; };
      if (o.min_to === o.max_to) {
        var fixedText = verb + " " + L.fmtNumber(o.min_to) + allInNote(o.min_to);
        button(fixedText, "raise", function () { act(fixedText, o.raise_kind, o.min_to); }, { "data-action": o.raise_kind, "data-amount": o.min_to });
      } else {
        button(verb + " " + L.fmtNumber(o.min_to) + "–" + L.fmtNumber(o.max_to), "raise", function () {
          self.amountOpen = !self.amountOpen;
          // Opened again: the preset shows, and the first digit typed replaces it (never appends).
          self.amount = o.min_to;
          self.amountTyped = false;
          self.render();
        }, { "data-action": "open-amount" });
        var potLimit = data.tournament.betting === "pot_limit";
        var topText = (potLimit ? T.pot_bet : T.all_in) + " " + L.fmtNumber(o.max_to) + (potLimit ? allInNote(o.max_to) : "");
        button(topText, "raise", function () { act(topText, o.raise_kind, o.max_to); }, { "data-action": "max", "data-amount": o.max_to });
        if (this.amountOpen) this.renderAmount(o, verb, act);
      }
    }
  };

  /* Keypad and slider: only amounts from min_to to max_to in whole chips (or all-in) can be confirmed (R5.7). */
  Tablet.prototype.renderAmount = function (o, verb, act) {
    var self = this, T = this.T, box = this.q("[data-role=amount-box]");
    box.hidden = false; box.innerHTML = "";
    var step = o.step || 1, allIn = o.player_bet + o.stack;
    var value = this.amount === null ? o.min_to : this.amount;
    var legal = value >= o.min_to && value <= o.max_to && (value % step === 0 || value === allIn);
    // The slider moves by the smallest chip; its top end is the largest legal amount, all-in included.
    var slider = el("input", { type: "range", min: o.min_to, max: o.max_to, step: step, value: Math.min(Math.max(value, o.min_to), o.max_to), "aria-label": T.amount });
    slider.addEventListener("input", function () {
      var v = Number(slider.value);
      self.amount = v + step > o.max_to ? o.max_to : v;
      self.amountTyped = false;
      self.render();
    });
    var keypad = el("div", { class: "keypad" });
    "123456789C0⌫".split("").forEach(function (k) {
      keypad.appendChild(el("button", { text: k === "C" ? T.clear : k, onclick: function () {
        var s = String(self.amount === null ? "" : self.amount);
        if (k === "C") s = "";
        else if (k === "⌫") s = s.slice(0, -1);
        else s = (self.amountTyped ? s : "") + k;
        self.amountTyped = k !== "C";
        self.amount = s === "" ? 0 : Number(s);
        self.render();
      } }));
    });
    var confirmText = verb + " " + L.fmtNumber(value) + (value === allIn ? " · " + T.all_in_label : "");
    var confirm = el("button", { class: "big", "data-action": "confirm-amount", text: legal ? confirmText : L.fmtNumber(o.min_to) + "–" + L.fmtNumber(o.max_to), onclick: function () {
      if (legal) act(confirmText, o.raise_kind, value);
    } });
    confirm.disabled = !legal || this.busy;
    box.appendChild(el("div", { class: "amount-value", "data-role": "amount", text: L.fmtNumber(value) }));
    box.appendChild(slider);
    // Presets: the minimum, half and three quarters of the pot, the pot, and the largest amount (all-in
    // in no limit). A pot-sized raise is to the current bet plus the pot after calling, in whole smallest
    // chips, within the engine's legal range (which the server checks again).
    var state = this.data.hand.state, current = state.current_bet || 0;
    var potAfterCall = (state.pot_total || 0) + (o.call || 0);
    var fraction = function (f) {
      var to = current + Math.floor((potAfterCall * f) / step) * step;
      return Math.min(o.max_to, Math.max(o.min_to, to));
    };
    var preset = function (text, amount, role) {
      return el("button", { class: "secondary", "data-preset": role, text: text + " " + L.fmtNumber(amount) + (amount === allIn ? " · " + T.all_in_label : ""),
        onclick: function () { self.amount = amount; self.amountTyped = false; self.render(); } });
    };
    var presets = [preset(T.min, o.min_to, "min")];
    [[T.half_pot, 0.5, "half"], [T.three_quarters_pot, 0.75, "three-quarters"], [T.pot_bet, 1, "pot"]].forEach(function (p) {
      var amount = fraction(p[1]);
      if (amount > o.min_to && amount < o.max_to) presets.push(preset(p[0], amount, p[2]));
    });
    presets.push(preset(T.max, o.max_to, "max"));
    box.appendChild(el("div", { class: "presets" }, presets));
    box.appendChild(keypad);
    box.appendChild(confirm);
  };

  /* Entered-card mode: a card already on the board, shown, or picked is refused. */
  Tablet.prototype.renderPicker = function (state, needed, done) {
    var self = this, T = this.T, box = this.q("[data-role=picker-box]");
    box.hidden = false; box.innerHTML = "";
    var used = {};
    state.board.forEach(function (c) { used[c] = true; });
    state.players.forEach(function (p) { (p.cards || []).forEach(function (c) { used[c] = true; }); });
    var picker = el("div", { class: "picker" });
    "shdc".split("").forEach(function (suit) {
      RANKS.split("").slice().reverse().forEach(function (rank) {
        var code = rank + suit, chosen = self.picked.indexOf(code) >= 0;
        var b = el("button", { class: (suit === "h" || suit === "d" ? "red" : "") + (chosen ? " chosen" : ""), "data-card": code,
          title: used[code] ? T.card_used : "", text: (rank === "T" ? "10" : rank) + SUITS[suit], onclick: function () {
            if (used[code]) return;
            if (chosen) self.picked.splice(self.picked.indexOf(code), 1);
            else if (self.picked.length < needed) self.picked.push(code);
            self.render();
          } });
        b.disabled = !!used[code];
        if (chosen) b.style.outline = "3px solid #f2b632";
        picker.appendChild(b);
      });
    });
    box.appendChild(el("div", { class: "board" }, self.picked.map(function (c) { return cardFace(c, "small"); })));
    box.appendChild(picker);
    var ok = el("button", { class: "big", text: T.enter_cards + " (" + self.picked.length + "/" + needed + ")", onclick: function () {
      if (self.picked.length === needed) done(self.picked.slice());
    } });
    ok.disabled = self.picked.length !== needed || this.busy;
    box.appendChild(ok);
  };

  Tablet.prototype.renderResult = function (state) {
    var T = this.T, box = this.q("[data-role=result]");
    box.innerHTML = "";
    var result = state && state.result;
    box.hidden = !result;
    if (!result) return;
    box.appendChild(el("h3", { text: T.winners }));
    var anyLow = false;
    result.pots.forEach(function (pot, i) {
      var lines = pot.awards.map(function (a) {
        if (a.share === "low") anyLow = true;
        var share = a.share === "high" ? T.high : a.share === "low" ? T.low : T.pot;
        return el("div", { class: "award", "data-role": "award", "data-share": a.share, "data-seat": a.seat },
          [share + ": " + T.seat + " " + a.seat + (a.player ? " · " + a.player : "") + " " + T.wins + " " + L.fmtNumber(a.amount) + (a.hand ? " (" + a.hand + ")" : "")]);
      });
      box.appendChild(el("div", null, [el("strong", { text: (i === 0 ? T.main_pot : T.side_pot + " " + i) + " " + L.fmtNumber(pot.amount) })].concat(lines)));
    });
    // "No qualifying low" only after a showdown: a pot won when everyone folded has no low to speak of.
    var showdown = result.pots.some(function (pot) { return pot.awards.some(function (a) { return !!a.hand; }); });
    if (state.game === "courchevel_hilo" && showdown && !anyLow) box.appendChild(el("div", { class: "muted", text: T.no_low }));
  };

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("tablet");
    if (root) root.tablet = new Tablet(root);
    // Kept by the browser, the tablet page opens again even when it is reloaded with the Wi-Fi down.
    if (root && "serviceWorker" in navigator) {
      navigator.serviceWorker.register("/tablet/sw.js", { scope: "/tablet/" }).catch(function () { /* no cache: online only */ });
    }
    if (root && !navigator.onLine) root.tablet.status("offline");
  });
})();
