/* The pit boss's tablet: round entry by taps, and an outbox that survives a lost connection.
 *
 * The page builds the game's round JSON (see the game modules in tables/games/) as the pit
 * boss taps. What a wager should pay comes from the server (the preview endpoint calls the
 * engine); nothing here decides a rule. Hand totals are shown for the pit boss's eye only.
 *
 * Outbox: a round being saved is written to localStorage with its Idempotency-Key first,
 * then sent. If the network fails it stays there and is sent again — same key — when the
 * browser comes back online and every few seconds, from any tablet page. The server
 * records it once (tables.services.idempotency).
 */
(function () {
  "use strict";

  // ---------------------------------------------------------------- outbox (every tablet page)
  const OUTBOX = "casino.tablet.outbox.v1";
  const RETRY_MS = 3000;

  // One outbox per user: a round is only ever sent under the login that recorded it.
  function outboxName() {
    const el = document.getElementById("outbox-banner");
    return OUTBOX + ":" + ((el && el.dataset.user) || "");
  }
  function loadOutbox() {
    try { return JSON.parse(localStorage.getItem(outboxName()) || "[]"); } catch (e) { return []; }
  }
  function storeOutbox(items) { localStorage.setItem(outboxName(), JSON.stringify(items)); }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  function csrfToken() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    return (CONFIG && CONFIG.csrf) || "";
  }

  const listeners = [];  // called with (item, result) when an outbox item gets an answer

  async function postJSON(url, body, key) {
    const headers = { "Content-Type": "application/json", "X-CSRFToken": csrfToken() };
    if (key) headers["Idempotency-Key"] = key;
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
    let data = {};
    try { data = await res.json(); } catch (e) { data = {}; }
    return { status: res.status, data };
  }

  let flushing = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (const item of loadOutbox()) {
        if (item.refused) continue;
        let result;
        try {
          result = await postJSON(item.url, item.body, item.key);
        } catch (e) {
          item.lastError = "offline";
          updateItem(item);
          continue;  // the network is down: keep it, try again later
        }
        if (result.status >= 200 && result.status < 300) {
          removeItem(item.key);
        } else if (result.status >= 500 || result.status === 401 || result.status === 403 || result.status === 0) {
          item.lastError = result.status >= 500 ? "server" : "login";
          updateItem(item);
          listeners.forEach((fn) => fn(item, result));
          continue;
        } else {
          item.refused = result.data.errors || { round: ["refused (" + result.status + ")"] };
          item.refusedWords = result.data.messages;
          updateItem(item);
        }
        listeners.forEach((fn) => fn(item, result));
      }
    } finally {
      flushing = false;
      renderBanner();
    }
  }

  function updateItem(item) {
    storeOutbox(loadOutbox().map((x) => (x.key === item.key ? item : x)));
  }
  function removeItem(key) {
    storeOutbox(loadOutbox().filter((x) => x.key !== key));
  }

  function renderBanner() {
    const el = document.getElementById("outbox-banner");
    if (!el) return;
    const items = loadOutbox();
    const waiting = items.filter((x) => !x.refused);
    const refused = items.filter((x) => x.refused);
    el.innerHTML = "";
    if (!items.length) { el.hidden = true; return; }
    el.hidden = false;
    if (waiting.length) {
      const p = document.createElement("p");
      p.className = "outbox-waiting";
      const login = waiting.some((x) => x.lastError === "login");
      p.textContent = waiting.length + (waiting.length === 1 ? " round" : " rounds") +
        (login ? " not sent — your login has expired: log in again and it will be sent." :
          " not sent — will retry when the connection returns.") +
        " (" + waiting.map((x) => x.label).join(", ") + ")";
      el.appendChild(p);
    }
    refused.forEach((x) => {
      const p = document.createElement("p");
      p.className = "outbox-refused";
      p.textContent = x.label + " was refused: " + errorText(x.refused, x.refusedWords) + " ";
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = "Discard";
      b.addEventListener("click", () => { removeItem(x.key); renderBanner(); });
      p.appendChild(b);
      el.appendChild(p);
    });
  }

  // The server says each error in people's words (seat 4, hand 1) beside its field path;
  // the path is shown only when an answer carries no words (an older server).
  function errorText(errors, words) {
    if (words && words.length) return words.join("; ");
    if (!errors) return "";
    return Object.entries(errors).map(([k, v]) => k + ": " + [].concat(v).join(" ")).join("; ");
  }

  /** Queue a save and try to send it now. Returns the outbox item. */
  function enqueue(url, body, label) {
    const item = { key: newKey(), url, body, label, created: new Date().toISOString() };
    const items = loadOutbox();
    items.push(item);
    storeOutbox(items);  // stored before the first attempt: a crash or a dead network loses nothing
    renderBanner();
    flush();
    return item;
  }

  window.addEventListener("online", flush);
  setInterval(() => { if (loadOutbox().some((x) => !x.refused)) flush(); }, RETRY_MS);
  document.addEventListener("DOMContentLoaded", () => { renderBanner(); flush(); });

  // ---------------------------------------------------------------- round entry
  const configEl = document.getElementById("entry-config");
  const CONFIG = configEl ? JSON.parse(configEl.textContent) : null;
  window.casinoTablet = { flush, loadOutbox, enqueue };
  if (!CONFIG) return;

  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
  const SUITS = [["S", "♠", false], ["H", "♥", true], ["D", "♦", true], ["C", "♣", false]];
  const FAMILY = CONFIG.family;  // blackjack | poker_or_bust | holdem
  const SEATS = Array.from({ length: CONFIG.seats }, (_, i) => i + 1);

  function freshSeat() {
    return { player: "", wagers: {}, hands: [{ cards: [], actions: [], done: false }], even_money: false, stack: "" };
  }

  let S = {
    phase: "bets",
    seats: Object.fromEntries(SEATS.map((n) => [n, freshSeat()])),
    selected: SEATS.slice(),
    tab: FAMILY === "holdem" ? "stack" : CONFIG.wagers[0].key,
    dealer: [],
    dealt: 0,
    manual: null,
    doubleNext: false,
    pays: {},
    button: null,
    log: [],
    reason: "",
    attested: false,  // "paid as shown" attested for every pay not marked one by one
    placed: [],  // where each card went, in the order tapped: "Remove last card" takes the last back
  };
  let history = [];
  let preview = null;
  let next = null;  // Hold'em: the server's next step
  let saved = null;  // the answer to the last save
  let pending = null;  // the outbox item of this page's save in flight
  let message = "";

  if (CONFIG.mode === "correct") { loadExisting(CONFIG.data); S.attested = !!CONFIG.pays_attested; }

  const root = document.getElementById("entry");
  // Count every control tap (capture phase: the button's own handler re-renders it away).
  root.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button, .hand-box, .seat-box");
    if (btn && root.contains(btn)) root.dataset.taps = String(Number(root.dataset.taps || 0) + 1);
  }, true);

  function snapshot() {
    history.push(JSON.stringify(S));
    if (history.length > 300) history.shift();
  }
  function undo() {
    if (!history.length) return;
    S = JSON.parse(history.pop());
    preview = null;
    next = null;
    render();
  }

  // ---------------------------------------------------------------- card arithmetic (display only)
  function points(card) {
    const r = card.slice(0, -1);
    if (r === "A") return 1;
    if ("TJQK".includes(r)) return 10;
    return Number(r);
  }
  function bjTotal(cards) {
    let t = 0, ace = false;
    cards.forEach((c) => { t += points(c); if (points(c) === 1) ace = true; });
    if (ace && t + 10 <= 21) return { total: t + 10, soft: true };
    return { total: t, soft: false };
  }
  function totalText(cards) {
    if (!cards.length) return "";
    if (FAMILY === "poker_or_bust") {
      const t = cards.reduce((a, c) => a + points(c), 0);
      return t > 31 ? t + " bust" : String(t);
    }
    const { total, soft } = bjTotal(cards);
    if (total > 21) return total + " bust";
    if (cards.length === 2 && total === 21) return "21 (blackjack)";
    return (soft ? "soft " : "") + total;
  }

  // ---------------------------------------------------------------- blackjack / poker or bust
  function activeSeats() {
    return SEATS.filter((n) => Object.values(S.seats[n].wagers).some((v) => v && Number(v) > 0));
  }

  function dealOrder() {
    const seats = activeSeats();
    const order = [];
    const rounds = FAMILY === "poker_or_bust" ? 3 : 2;
    for (let r = 0; r < rounds; r++) {
      seats.forEach((n) => order.push({ seat: n, hand: 0, deal: true }));
      if (r < 2) order.push({ seat: "dealer", deal: true });
    }
    return order;
  }

  function handPending(h) {
    if (h.done) return false;
    if (FAMILY === "poker_or_bust") return h.cards.reduce((a, c) => a + points(c), 0) < 31;
    return !(h.cards.length >= 2 && bjTotal(h.cards).total >= 21);
  }

  function target() {
    if (S.manual) return S.manual;
    const order = dealOrder();
    if (S.dealt < order.length) return order[S.dealt];
    for (const n of activeSeats()) {
      const hands = S.seats[n].hands;
      for (let i = 0; i < hands.length; i++) if (handPending(hands[i])) return { seat: n, hand: i };
    }
    return { seat: "dealer" };
  }

  function targetText(t) {
    if (t.seat === "dealer") return t.deal ? "Next card → dealer (" + (S.dealer.length ? "hole card" : "up card") + ")" : "Dealer draws: tap the dealer's cards, then Pays";
    const h = S.seats[t.seat].hands[t.hand];
    const name = "Seat " + t.seat + (S.seats[t.seat].hands.length > 1 ? " hand " + (t.hand + 1) : "");
    if (t.deal) return "Next card → " + name + " (card " + (h.cards.length + 1) + ")";
    const base = FAMILY === "poker_or_bust" ? 3 : 2;
    if (h.cards.length < base) return "Next card → " + name + " (card " + (h.cards.length + 1) + ")";
    return name + ": tap a card to " + (S.doubleNext ? "double" : FAMILY === "poker_or_bust" ? "draw" : "hit") + ", or Stand";
  }

  function tapCard(card) {
    if (FAMILY === "holdem") return holdemCard(card);
    snapshot();
    const t = target();
    S.placed.push({ seat: t.seat, hand: t.hand, deal: !!t.deal });
    if (t.seat === "dealer") {
      S.dealer.push(card);
    } else {
      const h = S.seats[t.seat].hands[t.hand];
      const base = FAMILY === "poker_or_bust" ? 3 : 2;
      if (t.deal || h.cards.length < base) {
        h.cards.push(card);
        // A dealt card put back by hand during the deal: the deal goes on in its order.
        if (S.manual && S.dealt < dealOrder().length) S.manual = null;
      } else {
        h.cards.push(card);
        if (FAMILY === "blackjack") h.actions.push(S.doubleNext ? "double" : "hit");
        if (S.doubleNext) { h.done = true; S.doubleNext = false; S.manual = null; }
      }
    }
    if (t.deal) S.dealt += 1;
    render();
  }

  function stand() {
    const t = target();
    if (t.seat === "dealer") return;
    snapshot();
    const h = S.seats[t.seat].hands[t.hand];
    if (FAMILY === "blackjack") h.actions.push("stand");
    h.done = true;
    S.manual = null;
    S.doubleNext = false;
    render();
  }

  function split() {
    const t = target();
    if (t.seat === "dealer" || FAMILY !== "blackjack") return;
    const seat = S.seats[t.seat];
    const h = seat.hands[t.hand];
    if (h.cards.length !== 2) { message = "Split needs a hand of exactly two cards."; return render(); }
    snapshot();
    const moved = h.cards.pop();
    h.actions.push("split");
    seat.hands.push({ cards: [moved], actions: [], done: false });
    const at = lastPlacement(t.seat, t.hand);  // the moved card now belongs to the new hand
    if (at >= 0) S.placed[at].hand = seat.hands.length - 1;
    render();
  }

  function lastPlacement(seat, hand) {
    for (let i = S.placed.length - 1; i >= 0; i--) {
      const p = S.placed[i];
      if (p.seat === seat && (seat === "dealer" || p.hand === hand)) return i;
    }
    return -1;
  }

  // The actions a hand keeps when it holds only its first `keep` cards: those taken before the
  // removed card came. A "hit" or "double" that drew it goes, and so does every action after it
  // (a "stand" on the total it made), so the right card can be tapped in its place.
  function actionsBefore(hand, index, keep) {
    let n = index > 0 ? 1 : 2;  // a split hand starts with the card moved to it
    const out = [];
    for (const a of hand.actions) {
      if (a === "split") { out.push(a); n = 1; continue; }
      if (n < 2) n = 2;  // a split hand's second card comes with no action
      if (a === "hit" || a === "double") {
        if (n + 1 > keep) break;
        n += 1;
      } else if (n > keep) break;
      out.push(a);
    }
    return out;
  }

  // The hand chosen by tapping it, else the card tapped last (the dealing order's previous
  // position while dealing), else (a correction loaded from a saved round) the current target.
  function removeLast() {
    const at = S.manual ? lastPlacement(S.manual.seat, S.manual.hand) : S.placed.length - 1;
    const t = S.manual || (at >= 0 ? S.placed[at] : target());
    const cards = t.seat === "dealer" ? S.dealer : S.seats[t.seat].hands[t.hand].cards;
    if (!cards.length) { message = "No card to remove there."; return render(); }
    snapshot();
    cards.pop();
    if (t.seat !== "dealer") {
      const h = S.seats[t.seat].hands[t.hand];
      h.actions = actionsBefore(h, t.hand, h.cards.length);
      h.done = false;
    }
    if (at >= 0) {
      const p = S.placed.splice(at, 1)[0];
      if (p.deal && at === S.placed.length && S.dealt > 0) S.dealt -= 1;  // the deal steps back
    }
    S.doubleNext = false;
    message = "";
    render();
  }

  function loadExisting(data) {
    // Corrections start from the current revision, every hand finished.
    if (FAMILY === "holdem") {
      S.button = data.button;
      (data.seats || []).forEach((s) => {
        S.seats[s.seat] = Object.assign(freshSeat(), { player: s.player || "", stack: s.stack });
      });
      const awards = (data.actions || []).filter((a) => a.action === "award" || a.action === "rake");
      S.log = (data.actions || []).filter((a) => a.action !== "award" && a.action !== "rake");
      awards.forEach((a) => { S.pays[a.action === "rake" ? "0|rake|null" : a.seat + "|pot|null"] = a.amount; });
      S.phase = "cards";
      return;
    }
    S.dealer = (data.dealer && data.dealer.cards) || [];
    S.selected = [];
    (data.seats || []).forEach((s) => {
      const seat = freshSeat();
      seat.player = s.player || "";
      seat.wagers = Object.assign({}, s.wagers);
      seat.even_money = !!s.even_money;
      if (FAMILY === "poker_or_bust") seat.hands = [{ cards: s.cards.slice(), actions: [], done: true }];
      else seat.hands = s.hands.map((h) => ({ cards: h.cards.slice(), actions: (h.actions || []).slice(), done: true }));
      (s.paid || []).forEach((p) => {
        S.pays[s.seat + "|" + p.wager + "|" + (p.hand === undefined || p.hand === null ? "null" : p.hand)] = p.net;
      });
      S.seats[s.seat] = seat;
      S.selected.push(s.seat);
    });
    S.dealt = dealOrder().length;
    S.phase = "cards";
  }

  function buildRound(withPays) {
    if (FAMILY === "holdem") return buildHoldem(withPays);
    const seats = activeSeats().map((n) => {
      const s = S.seats[n];
      const wagers = {};
      Object.entries(s.wagers).forEach(([k, v]) => { if (v && Number(v) > 0) wagers[k] = v; });
      const out = { seat: n, wagers };
      if (s.player.trim()) out.player = s.player.trim();
      if (FAMILY === "poker_or_bust") out.cards = s.hands[0].cards.slice();
      else {
        out.hands = s.hands.map((h) => ({ cards: h.cards.slice(), actions: h.actions.slice() }));
        if (s.even_money) out.even_money = true;
      }
      if (withPays && preview) {
        const paid = [];
        preview.settlements.filter((x) => x.seat === n).forEach((x) => {
          const v = S.pays[payKey(x)];
          if (v === undefined || v === "") return;
          const p = { wager: x.wager, net: v };
          if (x.hand !== null && x.hand !== undefined) p.hand = x.hand;
          paid.push(p);
        });
        if (paid.length) out.paid = paid;
      }
      return out;
    });
    const round = { dealer: { cards: S.dealer.slice() }, seats };
    return round;
  }

  function payKey(x) { return x.seat + "|" + x.wager + "|" + (x.hand === null || x.hand === undefined ? "null" : x.hand); }

  // ---------------------------------------------------------------- Hold'em Blackjack
  // The seats in a Hold'em hand are the seats with a stack.
  function holdemSeats() { return SEATS.filter((n) => S.seats[n].stack && Number(S.seats[n].stack) > 0); }

  function buildHoldem(withPays) {
    const seats = holdemSeats().map((n) => {
      const o = { seat: n, stack: S.seats[n].stack || "0" };
      if (S.seats[n].player.trim()) o.player = S.seats[n].player.trim();
      return o;
    });
    const actions = S.log.slice();
    if (withPays && preview) {
      preview.settlements.forEach((x) => {
        const v = S.pays[payKey(x)];
        if (v === undefined || v === "" || Number(v) <= 0) return;
        actions.push(x.wager === "rake" ? { action: "rake", amount: v } : { action: "award", seat: x.seat, amount: v });
      });
    }
    return { button: S.button, seats, actions };
  }

  let nextSeq = 0;
  async function refreshNext() {
    if (FAMILY !== "holdem" || S.phase !== "cards") return;
    const mine = ++nextSeq;
    try {
      const res = await postJSON(CONFIG.next_url, { round: buildHoldem(false) });
      if (mine !== nextSeq) return;
      next = res.status === 200 ? res.data : null;
      if (res.status !== 200) message = errorText(res.data.errors, res.data.messages);
    } catch (e) {
      if (mine !== nextSeq) return;
      next = null;
      message = "No connection: the legal actions cannot be shown; use Other action to record what happened.";
    }
    render(false);
  }

  function logAction(a) {
    snapshot();
    S.log.push(a);
    message = "";
    next = null;  // stale until the server answers: no tap may use the old turn
    render();
  }

  function holdemCard(card) {
    const field = root.querySelector("#other-card");
    if (field && root.querySelector(".other-action[open]")) { field.value = card; return; }
    if (!next) { message = "Wait a moment: working out whose card it is."; return render(false); }
    if (next && next.deal) return logAction({ action: next.deal.action, seat: next.deal.seat, card });
    if (next && next.phase === "complete" && next.to_act) return logAction({ action: "hit", seat: next.to_act, card });
    message = "No card is due now; to record one anyway, open Other action and tap the card.";
    render(false);
  }

  // ---------------------------------------------------------------- pays (preview) and save
  async function goPays() {
    S.phase = "pays";
    preview = null;
    message = "Asking the engine what each wager pays…";
    render();
    if (FAMILY === "holdem" && next && next.phase === "showdown" && !S.log.some((a) => a.action === "showdown")) {
      S.log.push({ action: "showdown" });
    }
    try {
      const body = { round: buildRound(false) };
      if (CONFIG.correcting) body.correcting = CONFIG.correcting;
      const res = await postJSON(CONFIG.preview_url, body);
      if (res.status === 200) { preview = res.data; message = ""; }
      else { message = "The round cannot be recorded as it is: " + errorText(res.data.errors, res.data.messages); S.phase = "cards"; }
    } catch (e) {
      message = "No connection: the pays cannot be computed now. Try again when the connection returns.";
      S.phase = "cards";
    }
    render();
  }

  function unmarkedPays() {
    return preview ? preview.settlements.filter((x) => S.pays[payKey(x)] === undefined) : [];
  }

  function expectedValue(x) {
    // Hold'em records chips pushed to the seat (stake + net); the others the player's net.
    if (FAMILY === "holdem") {
      if (x.wager === "rake") return x.net;
      return (Number(x.stake) + Number(x.net)).toFixed(2);
    }
    return x.net;
  }

  function save() {
    const round = buildRound(true);
    const label = CONFIG.table + (CONFIG.mode === "correct" ? " correction" : " round") + " of " + new Date().toLocaleTimeString();
    // The rule (docs/floor/recording-rounds.md): every pay marked, or the rest attested.
    const unmarked = unmarkedPays();
    if (unmarked.length && !S.attested) {
      message = unmarked.length + (unmarked.length === 1 ? " pay is" : " pays are") + " not marked: mark each, or tap \u201cAll the rest paid as shown\u201d to attest them.";
      return render();
    }
    if (unmarked.length && FAMILY === "holdem" && unmarked.length < preview.settlements.length) {
      message = "A pot is recorded whole: mark every row, or clear the marks (\u2190 Cards, Pays \u2192) and attest all of them.";
      return render();
    }
    const pays = unmarked.length ? "attested" : "recorded";
    let url = CONFIG.save_url, body = { round, pays };
    if (CONFIG.mode === "correct") {
      const reason = (root.querySelector("#reason") || {}).value || "";
      if (!reason.trim()) { message = "A correction needs a reason; it is kept with your name."; return render(); }
      url = CONFIG.correct_url;
      body = { round, revision: CONFIG.revision, reason, pays };
    }
    pending = enqueue(url, body, label);
    S.phase = "sending";
    render();
  }

  listeners.push((item, result) => {
    if (!pending || item.key !== pending.key) return;
    if (result.status >= 200 && result.status < 300) {
      saved = result.data;
      pending = null;
      S.phase = "saved";
    } else if (result.status === 400 || result.status === 409 || result.status === 422) {
      message = "Refused: " + errorText(result.data.errors, result.data.messages);
      removeItem(item.key);
      pending = null;
      S.phase = "pays";
    }
    render();
  });

  function nextRound() {
    // Same players and bets usually stay: keep them, clear the cards.
    SEATS.forEach((n) => { S.seats[n].hands = [{ cards: [], actions: [], done: false }]; S.seats[n].even_money = false; });
    S.dealer = []; S.dealt = 0; S.manual = null; S.doubleNext = false; S.pays = {}; S.log = []; S.attested = false; S.placed = [];
    if (FAMILY === "holdem" && S.button !== null) {
      const seats = holdemSeats();
      S.button = seats[(seats.indexOf(S.button) + 1) % seats.length];
    }
    preview = null; saved = null; next = null; history = []; message = "";
    S.phase = "bets";
    render();
  }

  // ---------------------------------------------------------------- rendering
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (k === "onclick") el.addEventListener("click", v);
      else if (k === "oninput") el.addEventListener("input", v);
      else if (k === "class") el.className = v;
      else if (v === true) el.setAttribute(k, "");
      else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v);
    });
    children.flat(Infinity).forEach((c) => { if (c !== null && c !== undefined && c !== false) el.append(c.nodeType ? c : String(c)); });
    return el;
  }
  function button(label, onclick, cls, attrs) { return h("button", Object.assign({ type: "button", class: cls || "", onclick }, attrs || {}), label); }
  function cardFace(c) {
    const suit = SUITS.find((s) => s[0] === c.slice(-1)) || [c.slice(-1), c.slice(-1), false];
    const rank = c.slice(0, -1) === "T" ? "10" : c.slice(0, -1);
    return h("span", { class: "pcard" + (suit[2] ? " red" : ""), "data-card": c }, rank + suit[1]);
  }

  function render(refresh = true) {
    root.dataset.phase = S.phase;
    root.innerHTML = "";
    if (message) root.append(h("p", { class: "entry-message", role: "status" }, message));
    if (S.phase === "bets") renderBets();
    else if (S.phase === "cards") FAMILY === "holdem" ? renderHoldem() : renderCards();
    else if (S.phase === "pays") renderPays();
    else if (S.phase === "sending") renderSending();
    else if (S.phase === "saved") renderSaved();
    if (refresh && FAMILY === "holdem" && S.phase === "cards") refreshNext();
  }

  function renderBets() {
    const isHoldem = FAMILY === "holdem";
    const seatRow = h("div", { class: "seat-picker" },
      h("span", { class: "muted" }, "Apply to seats:"),
      SEATS.map((n) => button(String(n), () => { snapshot(); toggleSeat(n); render(); },
        "seat-btn" + (S.selected.includes(n) ? " on" : ""), { "data-seat": n, "aria-pressed": String(S.selected.includes(n)) })),
      button("All", () => { S.selected = SEATS.slice(); render(); }, "small"),
      button("None", () => { S.selected = []; render(); }, "small"));
    const tabs = isHoldem ? [{ key: "stack", label: "Stack", amounts: CONFIG.stacks }] : CONFIG.wagers;
    const tab = tabs.find((w) => w.key === S.tab) || tabs[0];
    const tabRow = h("div", { class: "wager-tabs" }, tabs.map((w) =>
      button(w.label, () => { S.tab = w.key; render(); }, "tab" + (w.key === tab.key ? " on" : ""), { "data-wager": w.key })));
    const custom = h("input", { type: "text", inputmode: "decimal", placeholder: "Other amount", id: "custom-amount", size: 8 });
    const amounts = h("div", { class: "quick-amounts" },
      tab.amounts.map((a) => button(a, () => setAmount(tab.key, a), "amount", { "data-amount": a })),
      custom, button("Set", () => setAmount(tab.key, custom.value.trim()), "small"),
      button("Clear", () => setAmount(tab.key, ""), "small"));
    const cards = h("div", { class: "seat-cards" }, SEATS.map((n) => {
      const s = S.seats[n];
      const lines = isHoldem ? (s.stack ? ["Stack " + s.stack] : []) :
        Object.entries(s.wagers).filter(([, v]) => v).map(([k, v]) => (CONFIG.wagers.find((w) => w.key === k) || { label: k }).label + " " + v);
      const player = h("input", { type: "text", placeholder: "Player ID", value: s.player, "aria-label": "Seat " + n + " player",
        oninput: (e) => { s.player = e.target.value; } });
      return h("div", { class: "seat-card" + (S.selected.includes(n) ? " on" : "") + (lines.length ? " active" : ""), "data-seat-card": n },
        button("Seat " + n, () => { S.selected = [n]; render(); }, "seat-name"),
        isHoldem ? button(S.button === n ? "Button ●" : "Button", () => { S.button = n; render(); }, "small" + (S.button === n ? " on" : ""), { "data-button-seat": n }) : null,
        h("div", { class: "seat-wagers" }, lines.length ? lines.join(" · ") : h("span", { class: "muted" }, "empty")),
        player);
    }));
    const ready = isHoldem ? holdemSeats().filter((n) => S.seats[n].stack).length >= 2 && S.button !== null : activeSeats().length > 0;
    root.append(h("section", { class: "card bets" }, h("h2", {}, isHoldem ? "Players, stacks and the button" : "Bets"),
      seatRow, tabRow, amounts, cards,
      h("div", { class: "actions-row" }, button(isHoldem ? "Start the hand →" : "Cards →", () => {
        if (!ready) { message = isHoldem ? "Choose at least two seats with stacks and the button." : "Put a bet on at least one seat."; return render(); }
        message = ""; S.phase = "cards"; S.dealt = Math.min(S.dealt, dealOrder().length); render();
      }, "primary big", { id: "to-cards" }))));
  }

  function toggleSeat(n) {
    S.selected = S.selected.includes(n) ? S.selected.filter((x) => x !== n) : S.selected.concat([n]);
  }

  function setAmount(key, value) {
    if (value && !/^\d+(\.\d{1,2})?$/.test(value)) { message = "An amount is a number such as 25 or 12.50."; return render(); }
    snapshot();
    message = "";
    S.selected.forEach((n) => {
      const s = S.seats[n];
      if (key === "stack") { s.stack = value; return; }
      const before = s.wagers[key];
      s.wagers[key] = value;
      (CONFIG.wagers || []).filter((w) => w.mirror === key).forEach((w) => {
        if (!s.wagers[w.key] || s.wagers[w.key] === before) s.wagers[w.key] = value;
      });
    });
    render();
  }

  function cardGrid() {
    return h("div", { class: "card-grid", role: "group", "aria-label": "Cards" }, SUITS.map(([s, sym, red]) =>
      RANKS.map((r) => button((r === "T" ? "10" : r) + sym, () => tapCard(r + s), "cardbtn" + (red ? " red" : ""), { "data-card": r + s }))));
  }

  function handBox(n) {
    const seat = S.seats[n];
    const t = target();
    return h("div", { class: "seat-box", "data-seat-box": n },
      h("div", { class: "seat-head" }, h("strong", {}, "Seat " + n), seat.player ? h("span", { class: "muted" }, " " + seat.player) : null,
        FAMILY === "blackjack" ? button(seat.even_money ? "Even money ✓" : "Even money", () => { snapshot(); seat.even_money = !seat.even_money; render(); }, "small" + (seat.even_money ? " on" : "")) : null),
      seat.hands.map((hand, i) => h("div", {
        class: "hand-box" + (t.seat === n && t.hand === i ? " target" : "") + (handPending(hand) ? "" : " finished"),
        "data-hand": n + "-" + i,
        onclick: () => { S.manual = { seat: n, hand: i }; render(); },
      }, hand.cards.map(cardFace), h("span", { class: "total" }, totalText(hand.cards)),
      hand.actions.length ? h("span", { class: "muted acts" }, hand.actions.join(" ")) : null)));
  }

  function renderCards() {
    const t = target();
    const dealerBox = h("div", { class: "seat-box dealer" + (t.seat === "dealer" ? " target" : ""), "data-seat-box": "dealer",
      onclick: () => { S.manual = { seat: "dealer" }; render(); } },
      h("div", { class: "seat-head" }, h("strong", {}, "Dealer")), h("div", { class: "hand-box" }, S.dealer.map(cardFace),
        h("span", { class: "total" }, totalText(S.dealer))));
    const controls = h("div", { class: "controls" },
      button("Stand", stand, "", { id: "btn-stand", disabled: t.seat === "dealer" }),
      FAMILY === "blackjack" ? button(S.doubleNext ? "Double: next card" : "Double", () => { S.doubleNext = !S.doubleNext; render(); }, S.doubleNext ? "on" : "", { id: "btn-double", disabled: t.seat === "dealer" }) : null,
      FAMILY === "blackjack" ? button("Split", split, "", { id: "btn-split", disabled: t.seat === "dealer" }) : null,
      button("Undo", undo, "", { id: "btn-undo", disabled: !history.length }),
      button("Remove last card", removeLast, ""),
      S.manual ? button("Back to dealing order", () => { S.manual = null; render(); }, "") : null,
      button("← Bets", () => { S.phase = "bets"; render(); }, ""),
      button("Pays →", goPays, "primary", { id: "to-pays" }));
    root.append(h("div", { class: "cards-layout" },
      h("section", { class: "card table-view" }, h("p", { class: "target-text", id: "target-text" }, targetText(t)), dealerBox,
        activeSeats().map(handBox)),
      h("section", { class: "card grid-panel" }, cardGrid(), controls)));
  }

  function renderHoldem() {
    const seats = holdemSeats();
    const panel = h("div", { class: "next-panel", id: "next-panel" });
    if (!next) panel.append(h("p", { class: "muted" }, "Working out what comes next…"));
    else {
      if (next.posts && next.posts.length) {
        panel.append(h("p", { class: "target-text" }, "Antes and blinds due"),
          button("Post all as due", () => { snapshot(); next.posts.forEach((p) => S.log.push(p)); next = null; render(); }, "primary", { id: "post-all" }),
          // Node.append takes nodes, not an array (an array is printed as its text).
          h("div", { class: "options", id: "post-each" }, next.posts.map((p) => button(label(p), () => logAction(p), "option", { "data-post": p.action + "-" + p.seat }))));
      } else if (next.deal) {
        panel.append(h("p", { class: "target-text", id: "target-text" }, (next.deal.action === "hole" ? "Hole card" : "Up card") + " → seat " + next.deal.seat + ": tap the card"));
      } else if (next.phase === "complete" && next.to_act) {
        panel.append(h("p", { class: "target-text", id: "target-text" }, "Seat " + next.to_act + " (" + (next.totals[next.to_act] || "") + "): tap a card to hit, or Stand"),
          button("Stand", () => logAction({ action: "stand", seat: next.to_act }), "", { id: "btn-stand" }));
      } else if (next.to_act) {
        panel.append(h("p", { class: "target-text", id: "target-text" }, "Seat " + next.to_act + " to act"),
          h("div", { class: "options" }, next.options.map((o) => button(label(o), () => logAction(Object.assign({ seat: next.to_act }, o)), "option", { "data-action": o.action }))));
      } else {
        panel.append(h("p", { class: "target-text", id: "target-text" }, next.phase === "showdown" ? "Betting is over: showdown." : "The hand is over."),
          button("Pays →", goPays, "primary big", { id: "to-pays" }));
      }
    }
    const other = h("details", { class: "other-action" }, h("summary", {}, "Other action (anything that happened)"),
      h("div", { class: "other-fields" },
        h("select", { id: "other-seat" }, seats.map((n) => h("option", { value: n }, "Seat " + n))),
        h("select", { id: "other-action" }, ["ante", "small_blind", "big_blind", "hole", "up", "check", "fold", "bet", "call", "raise", "all_in", "hit", "stand", "showdown"].map((a) => h("option", { value: a }, a.replace("_", " ")))),
        h("input", { id: "other-amount", type: "text", inputmode: "decimal", placeholder: "Amount", size: 7 }),
        h("input", { id: "other-card", type: "text", placeholder: "Card", size: 4 }),
        button("Add", () => {
          const a = { action: root.querySelector("#other-action").value };
          if (a.action !== "showdown") a.seat = Number(root.querySelector("#other-seat").value);
          const amount = root.querySelector("#other-amount").value.trim();
          const card = root.querySelector("#other-card").value.trim().toUpperCase();
          if (["ante", "small_blind", "big_blind", "bet", "call", "raise", "all_in"].includes(a.action)) a.amount = amount;
          if (["hole", "up", "hit"].includes(a.action)) a.card = card;
          logAction(a);
        }, "")));
    const log = h("ol", { class: "action-log", id: "action-log" }, S.log.map((a) => h("li", {}, label(a), a.card ? cardFace(a.card) : null)));
    const seatsView = h("div", { class: "holdem-seats" }, seats.map((n) => h("div", { class: "seat-box" + (next && (next.to_act === n || (next.deal && next.deal.seat === n)) ? " target" : "") },
      h("strong", {}, "Seat " + n + (S.button === n ? " (button)" : "")), " ",
      S.log.filter((a) => a.seat === n && a.card).map((a) => cardFace(a.card)),
      h("span", { class: "total" }, next && next.totals[n] ? String(next.totals[n]) : ""),
      next && next.folded.includes(n) ? h("span", { class: "muted" }, " folded") : null)));
    root.append(h("div", { class: "cards-layout" },
      h("section", { class: "card table-view" }, panel, seatsView, log),
      h("section", { class: "card grid-panel" }, cardGrid(), h("div", { class: "controls" },
        button("Undo", undo, "", { id: "btn-undo", disabled: !history.length }),
        button("← Players", () => { S.phase = "bets"; render(); }, ""),
        button("Pays →", goPays, "", { id: "to-pays-any" })), other)));
    log.scrollTop = log.scrollHeight;  // the entry just recorded is the one in view
  }

  function label(a) {
    const name = a.action.replace("_", " ");
    return (a.seat ? "Seat " + a.seat + " " : "") + name + (a.amount ? " " + a.amount : "");
  }

  function renderPays() {
    const box = h("section", { class: "card pays" }, h("h2", {}, "Pays"));
    if (!preview) { root.append(box); return; }
    if (preview.findings.length) {
      box.append(h("div", { class: "engine-notes" }, h("p", {}, "The engine notes (before pays):"),
        h("ul", {}, preview.findings.filter((f) => f.kind !== "overpay" && f.kind !== "underpay").map((f) => h("li", {}, f.kind_words + ": " + f.message)))));
    }
    const rows = preview.settlements.map((x) => {
      const key = payKey(x);
      const should = expectedValue(x);
      const recorded = S.pays[key];
      const matches = recorded !== undefined && Number(recorded) === Number(should);
      const input = h("input", { type: "text", inputmode: "decimal", placeholder: FAMILY === "holdem" ? "chips pushed" : "+ paid / − taken", size: 8, "data-pay-input": key });
      const what = FAMILY === "holdem" ? (x.wager === "rake" ? "house should take " + should : "should receive " + should) : x.words;
      return h("div", { class: "pay-row" + (recorded === undefined ? (S.attested ? " attested" : " unmarked") : matches ? " ok" : " differs"), "data-pay": key },
        h("div", { class: "pay-what" }, h("strong", {}, (x.seat ? "Seat " + x.seat : "House") + " · " + x.label),
          h("span", {}, " — " + what), h("div", { class: "muted why" }, x.explanation)),
        h("div", { class: "pay-buttons" },
          button(matches ? "✓ Paid as shown" : "Paid as shown", () => { S.pays[key] = should; render(); }, "as-shown" + (matches ? " on" : ""), { "data-pay-ok": key }),
          input, button("Set", () => {
            const v = input.value.trim();
            if (!/^-?\d+(\.\d{1,2})?$/.test(v)) { message = "An amount is a number such as 20 or -10.50."; return render(); }
            S.pays[key] = Number(v).toFixed(2); message = ""; render();
          }, "small", { "data-pay-set": key }),
          recorded !== undefined && !matches ? h("span", { class: "bad" }, "recorded " + recorded) : null,
          recorded === undefined && S.attested ? h("span", { class: "muted" }, "attested, not recorded") : null));
    });
    box.append(h("div", { class: "pay-rows" }, rows));
    const unmarked = unmarkedPays().length;
    box.append(h("p", { class: "pays-count big-text " + (unmarked && !S.attested ? "bad" : "good"), id: "pays-unmarked", "data-unmarked": unmarked },
      unmarked === 0 ? "Every pay is marked." :
        unmarked + " of " + preview.settlements.length + (preview.settlements.length === 1 ? " pay" : " pays") + " not marked" +
        (S.attested ? ": attested \u201cpaid as shown\u201d (counted apart, not as recorded pays)." : ": mark each, or attest them.")));
    box.append(h("div", { class: "actions-row" },
      // Attesting records no amount: the round is stored as attested and its unmarked pays are
      // counted apart from recorded ones, never as paid correctly.
      unmarked ? button(S.attested ? "\u2713 All the rest paid as shown (attested)" : "All the rest paid as shown", () => {
        S.attested = !S.attested;
        message = "";
        render();
      }, S.attested ? "on" : "", { id: "all-as-shown", "aria-pressed": String(S.attested) }) : null,
      button("← Cards", () => { S.phase = "cards"; render(); }, ""),
      CONFIG.mode === "correct" ? h("input", { id: "reason", type: "text", placeholder: "Reason for the correction (required)", size: 40, value: S.reason, oninput: (e) => { S.reason = e.target.value; } }) : null,
      button(CONFIG.mode === "correct" ? "Save correction" : "Save round", save, "primary big", { id: "save-round" })));
    root.append(box);
  }

  function renderSending() {
    const offline = pending && loadOutbox().some((x) => x.key === pending.key && x.lastError === "offline");
    root.append(h("section", { class: "card sending", id: "send-state" }, offline ?
      h("p", { class: "warn big-text" }, "Not sent — will retry when the connection returns. The round is kept on this tablet.") :
      h("p", { class: "big-text" }, "Sending…")));
  }

  function renderSaved() {
    const f = saved.findings || [];
    root.append(h("section", { class: "card saved", id: "saved" },
      h("h2", { class: f.length ? "bad" : "good" }, (CONFIG.mode === "correct" ? "Correction saved: " : "Saved: ") + saved.table + " round #" + saved.sequence +
        (saved.revision > 1 ? " revision " + saved.revision : "") + (saved.replayed ? " (it had already arrived)" : "")),
      f.length ? h("div", {}, h("p", { class: "bad big-text" }, f.length + (f.length === 1 ? " finding" : " findings") + " · " + saved.at_stake + " at stake"),
        h("ul", { class: "finding-list", id: "saved-findings" }, f.map((x) => h("li", { class: "kind-" + x.kind }, h("strong", {}, x.kind_words), (Number(x.amount) ? " · " + x.amount : "") + ": " + x.message))))
        : saved.attested ? h("p", { class: "big-text", id: "no-findings" }, "No findings on the pays recorded; " + saved.attested +
          (saved.attested === 1 ? " pay" : " pays") + " attested \u201cpaid as shown\u201d, not recorded (not judged).")
        : h("p", { class: "good big-text", id: "no-findings" }, "No findings: every pay matched."),
      h("div", { class: "actions-row" },
        h("a", { class: "btn", href: saved.url }, "View round"),
        CONFIG.mode === "correct" ? h("a", { class: "btn primary", href: CONFIG.table_url }, "Back to the table") :
          button("Next round", nextRound, "primary big", { id: "next-round" }))));
  }

  // Make the periodic retry re-render the sending state (offline → still waiting).
  setInterval(() => { if (S.phase === "sending") render(false); }, 1000);
  render();
})();
