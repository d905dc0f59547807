/* The feature table: the board, the players, the hands the dealer has turned face up (R6.2) and each
 * player's all-in equity, street by street. Everything comes from the public feature snapshot: a hand
 * not yet face up has no cards in it, so there is nothing to hide here. */
(function () {
  "use strict";
  var L = window.Live, el = L.el;
  var SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };

  function cardFace(code, cls) {
    if (!code) return el("span", { class: "card-face slot " + (cls || "") });
    var rank = code[0] === "T" ? "10" : code[0], suit = code[1];
    return el("span", { class: "card-face " + (suit === "h" || suit === "d" ? "red " : "") + (cls || ""), "data-card": code, text: rank + SUITS[suit] });
  }
  function pct(x) { return (x * 100).toFixed(1) + " %"; }

  function Feature(root) {
    this.root = root;
    this.T = L.labels();
    var self = this;
    this.socket = new L.LiveSocket(root.getAttribute("data-ws"), {
      snapshot: function (data) { self.render(data); },
      status: function (state) {
        self.q("[data-role=connection]").textContent = state === "offline" ? self.T.offline : state === "gone" ? self.T.gone : "";
      },
    });
  }
  Feature.prototype.q = function (sel) { return this.root.querySelector(sel); };

  Feature.prototype.render = function (data) {
    var T = this.T, hand = data.hand;
    this.root.setAttribute("data-version", String(this.socket.version));
    var board = this.q("[data-role=board]"), players = this.q("[data-role=players]"), result = this.q("[data-role=result]");
    board.innerHTML = ""; players.innerHTML = ""; result.innerHTML = "";
    this.q("[data-role=hand-label]").textContent = hand ? L.interp(T.hand, { number: hand.number }) : T.no_hand;
    this.q("[data-role=street]").textContent = hand ? (T.streets[hand.street] || "") : "";
    this.q("[data-role=pot]").textContent = hand && hand.status === "running" ? T.pot + " " + L.fmtNumber(hand.pot) : "";
    result.hidden = true;
    if (!hand) return;
    for (var i = 0; i < 5; i++) board.appendChild(cardFace(hand.board[i]));
    var hilo = data.tournament.game === "courchevel_hilo";
    hand.players.forEach(function (p) {
      var eq = p.equity, sampled = hand.equity && hand.equity.method === "sampled";
      var lines = [];
      if (eq) {
        lines.push(el("div", { class: "equity-share", "data-role": "share", text: pct(eq.share) + (sampled ? " ± " + pct(eq.share_error) : "") }));
        lines.push(el("div", { class: "muted", text: T.high + " " + pct(eq.high_win + eq.high_tie) + (hilo ? " · " + T.low + " " + pct(eq.low_win + eq.low_tie) + " · " + T.scoop + " " + pct(eq.scoop) : "") }));
      }
      players.appendChild(el("div", { class: "feature-player" + (p.folded ? " folded" : "") + (p.face_up ? " face-up" : ""), "data-seat": p.seat }, [
        el("div", { class: "name", text: p.seat + " · " + p.player }),
        el("div", { class: "stack", text: L.fmtNumber(p.stack) + (p.all_in ? " · " + T.all_in : "") + (p.folded ? " · " + T.folded : "") }),
        el("div", { class: "shown", "data-role": "cards" }, p.cards ? p.cards.map(function (c) { return cardFace(c, "small"); })
          : (p.folded ? [] : [el("span", { class: "muted", text: T.face_down })])),
      ].concat(lines)));
    });
    if (hand.result) {
      result.hidden = false;
      hand.result.pots.forEach(function (pot) {
        pot.awards.forEach(function (a) {
          result.appendChild(el("div", { "data-role": "award", text: a.player + " " + T.wins + " " + L.fmtNumber(a.amount) + (a.hand ? " (" + a.hand + ")" : "") }));
        });
      });
    }
  };

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("feature");
    if (root) root.feature = new Feature(root);
  });
})();
