/* The players' page: fetches the tournament's snapshot (one cached build per version, ETag: a
 * phone that has it gets 304), polls it every 15 s and when the phone wakes, and counts the clock
 * down locally from the server's time like the clock screens. Finding a seat asks the server. */
(function () {
  "use strict";
  var L = window.Live;
  var POLL_MS = 15000;

  function Player(root) {
    this.root = root;
    this.T = L.labels();
    this.data = null;
    this.version = -1;
    this.offset = 0;
    var self = this;
    this.load();
    setInterval(function () { self.load(); }, POLL_MS);
    setInterval(function () { self.tick(); }, 500);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) self.load(); });
    root.querySelector("[data-role=seat-form]").addEventListener("submit", function (event) {
      event.preventDefault();
      self.findSeat(root.querySelector("[data-role=seat-name]").value);
    });
  }
  Player.prototype.q = function (sel) { return this.root.querySelector(sel); };
  Player.prototype.set = function (sel, text) {
    var node = this.q(sel);
    if (node && node.textContent !== text) node.textContent = text;
  };
  Player.prototype.now = function () { return Date.now() + this.offset; };

  Player.prototype.load = function () {
    var self = this;
    // "no-cache": the browser asks again with If-None-Match and the server answers 304 if nothing changed.
    fetch(this.root.getAttribute("data-src"), { cache: "no-cache", credentials: "omit" })
      .then(function (r) {
        var server = Number(r.headers.get("X-Server-Time"));
        if (server) self.offset = server - Date.now();
        return r.ok ? r.json() : null;
      })
      .then(function (body) {
        if (!body || body.version <= self.version) return;
        self.version = body.version;
        self.update(body.data);
      })
      .catch(function () { /* offline: the next poll tries again */ });
  };

  Player.prototype.list = function (sel, items) {
    var node = this.q(sel);
    if (!node) return;
    node.innerHTML = "";
    items.forEach(function (item) { node.appendChild(item); });
  };

  Player.prototype.update = function (data) {
    this.data = data;
    var T = this.T, t = data.tournament, f = data.field, room = data.room;
    this.root.setAttribute("data-version", String(this.version));
    this.set("[data-role=name]", t.name);
    this.set("[data-role=game]", (T["game_" + t.game] || t.game) + " · " + (T["betting_" + t.betting] || t.betting));
    this.set("[data-role=players]", L.fmtNumber(f.players_left));
    this.set("[data-role=entries]", L.fmtNumber(f.entries));
    this.set("[data-role=reentries]", L.fmtNumber(f.reentries));
    this.set("[data-role=average]", L.fmtNumber(f.average_stack));
    this.set("[data-role=pool]", f.prize_pool ? L.fmtNumber(f.prize_pool) : "–");
    var flight = data.flight;
    this.q("[data-role=flight-box]").hidden = !flight;
    if (flight) {
      // A flight of a multi-day event: the event's totals and every flight's survivors.
      this.set("[data-role=flight-label]", L.interp(T.flight_label, { flight: flight.label, event: flight.event.name }));
      this.set("[data-role=flight]", L.interp(T.flight_line, { left: L.fmtNumber(flight.event.players_left), entries: L.fmtNumber(flight.event.entries) }));
      this.list("[data-role=flights]", flight.event.flights.map(function (row) {
        return L.el("li", null, [L.el("span", { class: "who", text: row.label }),
          L.el("span", { class: "amount", text: L.interp(T.flight_survivors, { players: L.fmtNumber(row.closed ? row.survivors : row.players_left) }) })]);
      }));
    }
    var ann = this.q("[data-role=announcement]");
    ann.textContent = data.announcement || ""; ann.hidden = !data.announcement;
    var payouts = f.payouts.map(function (p) {
      return L.el("li", null, [L.el("span", { class: "place", text: p.place + "." }), L.el("span", { class: "amount", text: L.fmtNumber(p.amount) })]);
    });
    this.list("[data-role=payouts]", payouts.length ? payouts : [L.el("li", { class: "muted", text: T.no_payouts })]);
    this.list("[data-role=moves]", room.recent_moves.map(function (m) {
      return L.el("li", { text: m.from_table ? L.interp(T.move_line, m) : L.interp(T.seat_line, m) });
    }));
    this.q("[data-role=moves-box]").hidden = !room.recent_moves.length;
    this.list("[data-role=results]", room.results.map(function (r) {
      return L.el("li", null, [L.el("span", { class: "place", text: r.place + "." }), L.el("span", { class: "who", text: r.name }), L.el("span", { class: "amount", text: L.fmtNumber(r.prize) })]);
    }));
    this.q("[data-role=results-box]").hidden = !room.results.length;
    var betting = t.betting;
    this.list("[data-role=structure]", data.schedule.map(function (lv) {
      var blinds = lv.is_break ? T["break"] : (betting === "fixed_limit" && lv.small_bet ? L.fmtNumber(lv.small_bet) + " / " + L.fmtNumber(lv.big_bet) : L.fmtNumber(lv.small_blind) + " / " + L.fmtNumber(lv.big_blind));
      return L.el("tr", { "data-index": String(lv.index) }, [L.el("td", { text: lv.is_break ? "–" : String(lv.number) }), L.el("td", { text: blinds }), L.el("td", { text: lv.ante ? L.fmtNumber(lv.ante) : "" }), L.el("td", { text: String(Math.round(lv.seconds / 60)) })]);
    }));
    this.set("[data-role=updated]", L.interp(T.updated, { time: new Intl.DateTimeFormat(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(new Date(this.now())) }));
    this.tick();
  };

  Player.prototype.tick = function () {
    var data = this.data, T = this.T;
    if (!data || !data.schedule.length) return;
    var at = window.clockAt(data, this.now());
    var sch = data.schedule, t = data.tournament, level = sch[at.index], next = sch[at.index + 1];
    var stakes = function (lv) {
      if (!lv || lv.is_break) return "";
      if (t.betting === "fixed_limit" && lv.small_bet) return L.fmtNumber(lv.small_bet) + " / " + L.fmtNumber(lv.big_bet);
      return L.fmtNumber(lv.small_blind) + " / " + L.fmtNumber(lv.big_blind);
    };
    var name = function (lv) { return lv.is_break ? T["break"] : T.level + " " + lv.number; };
    this.set("[data-role=level]", name(level));
    this.set("[data-role=time]", L.fmtClock(at.remaining));
    this.set("[data-role=stakes]", stakes(level));
    var ante = level.ante && !level.is_break ? (level.ante_kind === "big_blind" ? T.bb_ante : T.ante) + " " + L.fmtNumber(level.ante) : "";
    this.set("[data-role=ante]", ante);
    this.set("[data-role=next]", next ? name(next) + (next.is_break ? "" : ": " + stakes(next)) : T.last_level);
    var state = t.status === "finished" ? T.finished : !at.started ? T.not_started : t.hand_for_hand ? T.hand_for_hand : at.paused ? T.paused : data.room.final_table ? T.final_table : "";
    this.set("[data-role=state]", state);
    this.root.classList.toggle("paused", at.paused && !t.hand_for_hand);
    var total = at.remaining, found = null;
    for (var i = at.index + 1; i < sch.length; i++) { if (sch[i].is_break) { found = total; break; } total += sch[i].seconds; }
    this.set("[data-role=to-break]", found === null ? "–" : L.fmtClock(found));
    var late = data.late_registration;
    var open = late.until_level && late.open && t.status !== "finished";
    this.q("[data-role=late-box]").hidden = !open;
    if (open) {
      var left = null;
      if (at.started && late.last_index !== null && at.index <= late.last_index) {
        left = at.remaining;
        for (var k = at.index + 1; k <= Math.min(late.last_index, sch.length - 1); k++) left += sch[k].seconds;
      }
      this.set("[data-role=late]", left === null ? L.interp(T.late_reg_open, { level: late.until_level }) : L.interp(T.late_reg_closes_in, { time: L.fmtClock(left) }));
    }
    this.root.querySelectorAll("[data-role=structure] tr").forEach(function (row) {
      row.classList.toggle("current", row.getAttribute("data-index") === String(at.index));
    });
  };

  Player.prototype.findSeat = function (name) {
    var self = this, T = this.T, out = this.q("[data-role=seat-results]");
    out.innerHTML = "";
    if (name.trim().length < 2) { out.appendChild(L.el("li", { class: "muted", text: T.type_more })); return; }
    fetch(this.root.getAttribute("data-seat") + "?name=" + encodeURIComponent(name), { credentials: "omit" })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        out.innerHTML = "";
        var results = body.results || [];
        if (!results.length) out.appendChild(L.el("li", { class: "muted", text: body.detail || T.no_match }));
        results.forEach(function (r) {
          var where = r.place ? L.interp(T.busted_place, { place: r.place }) : r.table ? L.interp(T.seat_at, { table: r.table, seat: r.seat }) : T.not_seated;
          out.appendChild(L.el("li", { "data-role": "seat-result" }, [L.el("strong", { text: r.name }), " ", L.el("span", { text: where })]));
        });
      })
      .catch(function () { /* offline */ });
    void self;
  };

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-player]");
    if (root) root.player = new Player(root);
  });
})();
