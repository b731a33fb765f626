// The arbiter's station page. Plain JavaScript, served by the kiosk (the room has no internet).
// Photos wait in the browser (IndexedDB) until the kiosk has them: a Wi-Fi drop or a restart
// of the kiosk loses nothing, and each upload or action carries an id, so a retry never counts
// twice. The page follows the game by long polling /api/etat.
"use strict";

const STORE = "kiosk-poste";
const $ = (id) => document.getElementById(id);
let station = JSON.parse(localStorage.getItem(STORE) || "null");
let state = null;
let seq = -1;
let online = true;
const images = new Map(); // reading seq → blob URL
const cards = new Map(); // reading seq → {element, version}
let actions = JSON.parse(localStorage.getItem(STORE + "-actions") || "[]");

function newId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function newToken() {
  return newId() + newId();
}

function say(text, error) {
  const box = $("message");
  box.textContent = text;
  box.className = error ? "erreur" : "";
  box.hidden = false;
  clearTimeout(say.timer);  // a refusal stays until tapped: the arbiter must not miss it
  if (!error) say.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

function setOnline(value) {
  online = value;
  const badge = $("reseau");
  badge.textContent = value ? "en ligne" : "hors ligne — réessai automatique";
  badge.className = value ? "enligne" : "horsligne";
}

class NetworkError extends Error {}

async function api(method, path, body, isForm) {
  const headers = {};
  if (station) headers["X-Jeton"] = station.jeton;
  let payload;
  if (body !== undefined) {
    if (isForm) payload = body;
    else { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, cache: "no-store" });
  } catch (e) {
    setOnline(false);
    throw new NetworkError("réseau indisponible");
  }
  setOnline(true);
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return { status: response.status, ok: response.ok, data };
}

// A wait that the network coming back (or a new photo) cuts short.
const wakers = new Set();
function sleep(ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); wakers.delete(done); resolve(); };
    const timer = setTimeout(done, ms);
    wakers.add(done);
  });
}
function wakeAll() { for (const wake of Array.from(wakers)) wake(); }

// -- joining ------------------------------------------------------------------------------
function showJoin(message) {
  $("principal").hidden = true;
  $("rejoindre").hidden = false;
  $("partie").textContent = "Poste d'arbitrage";
  const secret = sessionStorage.getItem(STORE + "-cle");
  $("bloc-code").hidden = Boolean(secret);
  if (station && station.nom) $("nom").value = station.nom;
  if (message) say(message, true);
}

function forget(message) {
  station = null;
  localStorage.removeItem(STORE);
  showJoin(message);
}

async function join(event) {
  event.preventDefault();
  const secret = sessionStorage.getItem(STORE + "-cle");
  const token = (station && station.jeton) || newToken();
  const body = { nom: $("nom").value, jeton: token };
  if (secret) body.cle = secret; else body.code = $("code").value;
  let answer;
  try { answer = await api("POST", "/api/rejoindre", body); } catch (e) {
    say("réseau indisponible : réessayez dans un instant", true);
    return;
  }
  if (!answer.ok) {
    if (answer.status === 403 && secret) sessionStorage.removeItem(STORE + "-cle");
    station = null;
    showJoin(answer.data.erreur || "connexion refusée");
    return;
  }
  station = { jeton: token, poste: answer.data.poste, nom: answer.data.nom };
  localStorage.setItem(STORE, JSON.stringify(station));
  sessionStorage.removeItem(STORE + "-cle");
  start();
}

// -- the game, followed -------------------------------------------------------------------
let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  let delay = 1000;
  while (station) {
    let answer;
    try {
      answer = await api("GET", "/api/etat?depuis=" + seq);
    } catch (e) {
      await sleep(delay);
      delay = Math.min(delay * 2, 8000);
      continue;
    }
    delay = 1000;
    if (answer.status === 401 || answer.status === 403) {
      polling = false;
      forget(answer.data.erreur);
      return;
    }
    if (!answer.ok) { await sleep(2000); continue; }
    state = answer.data;
    seq = state.seq;
    render();
  }
  polling = false;
}

function wordText(word) {
  if (!word) return "";
  let out = "";
  for (const ch of word) out += ch >= "a" && ch <= "z" ? "(" + ch.toUpperCase() + ")" : ch;
  return out.replace(/\)\(/g, "");
}

function wordValue(text) {
  let out = "", joker = false;
  for (const ch of text.replace(/\s/g, "")) {
    if (ch === "(") joker = true;
    else if (ch === ")") joker = false;
    else out += joker ? ch.toLowerCase() : ch.toUpperCase();
  }
  return out;
}

function wordNode(word) {
  const span = document.createElement("span");
  for (const ch of word || "") {
    if (ch >= "a" && ch <= "z") {
      const j = document.createElement("span");
      j.className = "joker";
      j.textContent = ch.toUpperCase();
      span.appendChild(j);
    } else span.appendChild(document.createTextNode(ch));
  }
  return span;
}

const LABELS = { table: "table", word: "mot", ref: "référence", score: "score", raccord: "raccord" };

function render() {
  $("rejoindre").hidden = true;
  $("principal").hidden = false;
  const s = state;
  let title = s.coup ? `Coup ${s.coup} · ${s.etape}` : s.etape;
  if (s.top) title += ` · top ${s.top}`;
  $("partie").textContent = title;
  $("progression").textContent = s.progression.texte
    ? `Coup ${s.progression.coup} : ${s.progression.texte}` : "Pas encore de coup à corriger";
  const select = $("coup");
  const previous = select.value;
  select.textContent = "";
  for (const n of s.coups) {
    const option = document.createElement("option");
    option.value = n;
    option.textContent = n === s.coup_defaut ? `coup ${n} (en cours)`
      : n < s.coup_defaut ? `coup ${n} (bulletin en retard)` : `coup ${n} (rendu en avance)`;
    select.appendChild(option);
  }
  if (s.coups.includes(Number(previous)) && renderedDefault === s.coup_defaut) select.value = previous;
  else if (s.coup_defaut) select.value = s.coup_defaut;
  renderedDefault = s.coup_defaut;
  $("choix-coup").hidden = s.coups.length < 2;
  $("bouton-photo").classList.toggle("inactif", !s.coup_defaut);
  const block = s.poste.bloc;
  $("bloc-texte").textContent = block ? `(tables ${block[0]} à ${block[1]})` : "(toutes)";
  $("qui").textContent = `${s.poste.nom} · poste ${s.poste.id} · ${s.adresse}`;
  const list = $("tables");
  list.textContent = "";
  for (const t of s.tables) {
    const li = document.createElement("li");
    li.className = t.etat;
    const mark = t.etat === "fait" ? "✓ " + t.resultat : t.etat === "attente" ? "à confirmer" : "manque";
    const who = document.createElement("b");
    who.textContent = `${t.table} ${t.nom}`;
    const what = document.createElement("span");
    what.textContent = mark;
    li.append(who, what);
    li.dataset.table = t.table;
    li.title = `${t.table} ${t.nom} : ${mark}`;
    list.appendChild(li);
  }
  renderReadings(s.lectures);
  renderQueue();
}
let renderedDefault = null;

function renderReadings(readings) {
  const box = $("lectures");
  const keep = new Set(readings.map((r) => r.seq));
  for (const [key, card] of cards) {
    if (!keep.has(key)) { card.element.remove(); cards.delete(key); }
  }
  // oldest first, new ones appended below: a reading arriving never moves the card under the
  // thumb; an element already in its place is not touched
  let previous = null;
  for (const r of readings) {
    let card = cards.get(r.seq);
    const editing = card && !card.element.querySelector(".edition").hidden;
    if (!card) {
      const element = $("modele-lecture").content.firstElementChild.cloneNode(true);
      card = { element, version: null, reading: r };
      cards.set(r.seq, card);
      wire(card);
    }
    card.reading = r;
    if (card.version !== r.version && !editing) fill(card, r);
    else if (editing && card.version !== r.version) {
      card.element.querySelector(".notes").textContent = "";
      const li = document.createElement("li");
      li.textContent = "ce bulletin vient d'être modifié ailleurs : vérifiez avant d'enregistrer";
      card.element.querySelector(".notes").appendChild(li);
    }
    const wanted = previous ? previous.nextSibling : box.firstChild;
    if (wanted !== card.element) box.insertBefore(card.element, wanted);
    previous = card.element;
  }
}

function fill(card, r) {
  const el = card.element;
  card.version = r.version;
  el.dataset.seq = r.seq;
  if (r.envoi) el.dataset.envoi = r.envoi;
  const table = r.champs.table.valeur;
  el.querySelector(".titre").textContent =
    `Coup ${r.coup} · table ${table ?? "?"} · ${r.statut} · ${r.poste === "console" ? "console" : "photo de " + r.poste}`;
  // one card per bulletin of a photo of several: « 2 bulletins sur la photo (n° 1) »
  const sheet = el.querySelector(".feuille");
  sheet.hidden = !r.feuille;
  sheet.textContent = r.feuille ? r.feuille.texte : "";
  if (r.id) el.dataset.id = r.id;
  const fields = el.querySelector(".champs");
  fields.textContent = "";
  for (const name of ["table", "word", "ref", "score", "raccord"]) {
    const f = r.champs[name];
    if (name === "raccord" && !f.valeur) continue;
    const dt = document.createElement("dt");
    dt.textContent = LABELS[name];
    const dd = document.createElement("dd");
    dd.dataset.champ = name;
    if (f.valeur === null || f.valeur === "") dd.textContent = "non lu";
    else if (name === "word") dd.appendChild(wordNode(f.valeur));
    else dd.textContent = f.valeur;
    if (f.confiance !== null) dd.appendChild(document.createTextNode(` (${Math.round(f.confiance * 100)} %)`));
    if (f.doute) dd.classList.add("doute");
    if (f.doute && f.pourquoi) {
      const why = document.createElement("small");
      why.className = "pourquoi";
      why.textContent = ` : ${f.pourquoi}`;
      dd.appendChild(why);
    }
    fields.append(dt, dd);
  }
  const d = r.decision;
  const decision = el.querySelector(".decision");
  decision.textContent = d.score === null ? d.resultat : `${d.resultat} ${d.score}`;
  decision.className = "decision " + d.code;
  const reasons = el.querySelector(".motifs");
  reasons.textContent = "";
  for (const m of d.motifs) { const li = document.createElement("li"); li.textContent = m; reasons.appendChild(li); }
  if (r.message && r.statut !== "lu") {
    const li = document.createElement("li"); li.textContent = "lecture : " + r.message; reasons.appendChild(li);
  }
  const notes = el.querySelector(".notes");
  notes.textContent = "";
  for (const n of r.notes) { const li = document.createElement("li"); li.textContent = n; notes.appendChild(li); }
  // « coup précédent ? » / « coup suivant ? »: the arbiter says which coup, before confirming
  const choose = el.querySelector(".classer");
  choose.hidden = !r.voisin;
  el.querySelector(".actions").hidden = Boolean(r.voisin);
  if (r.voisin) {
    el.querySelector(".vers-voisin").textContent = `C'est le coup ${r.voisin}`;
    el.querySelector(".garder").textContent = `C'est le coup ${r.coup}`;
  }
  if (r.image) loadImage(r.seq, el.querySelector(".page"));
}

async function loadImage(key, img) {
  if (images.has(key)) { img.src = images.get(key); img.hidden = false; return; }
  try {
    const response = await fetch("/api/image/" + key, { headers: { "X-Jeton": station.jeton } });
    if (!response.ok) return;
    const url = URL.createObjectURL(await response.blob());
    images.set(key, url);
    img.src = url;
    img.hidden = false;
  } catch (e) { /* the next state brings it again */ }
}

function wire(card) {
  const el = card.element;
  const form = el.querySelector(".edition");
  el.querySelector(".confirmer").addEventListener("click", () => act(card, "confirmer", {}));
  el.querySelector(".vers-voisin").addEventListener("click",
    () => act(card, "classer", null, undefined, card.reading.voisin));
  el.querySelector(".garder").addEventListener("click",
    () => act(card, "classer", null, undefined, card.reading.coup));
  el.querySelector(".ecarter").addEventListener("click", () => {
    if (confirm("Écarter ce bulletin (photo en double, erreur) ? Il reste dans le journal.")) act(card, "ecarter");
  });
  el.querySelector(".modifier").addEventListener("click", () => {
    const r = card.reading;
    for (const name of ["table", "word", "ref", "score", "raccord"]) {
      const v = r.champs[name].valeur;
      form.elements[name].value = v === null || v === undefined ? "" : name === "word" ? wordText(v) : v;
    }
    form.dataset.version = r.version;
    form.hidden = false;
    el.querySelector(".actions").hidden = true;
    form.elements.table.focus();
  });
  const fields = () => {
    const out = {};
    for (const name of ["table", "word", "ref", "score", "raccord"]) {
      const v = form.elements[name].value.trim();
      out[name] = name === "word" ? wordValue(v) : v.toUpperCase();
    }
    return out;
  };
  const close = () => { form.hidden = true; el.querySelector(".actions").hidden = false; card.version = null; };
  form.addEventListener("submit", (e) => { e.preventDefault(); act(card, "confirmer", fields(), Number(form.dataset.version)); close(); });
  el.querySelector(".enregistrer").addEventListener("click", () => { act(card, "modifier", fields(), Number(form.dataset.version)); close(); });
  el.querySelector(".annuler").addEventListener("click", () => { close(); fill(card, card.reading); });
}

// -- actions: confirm, edit, set aside (retried with the same id) ----------------------------
function saveActions() { localStorage.setItem(STORE + "-actions", JSON.stringify(actions)); }

function act(card, what, fields, version, coup) {
  const r = card.reading;
  const body = { id: newId(), action: what, version: version ?? r.version };
  if (fields) body.champs = fields;
  if (coup) body.coup = coup;
  actions.push({ seq: r.seq, body });
  saveActions();
  card.element.querySelector(".actions").hidden = true;
  sendActions();
}

let sending = false;
async function sendActions() {
  if (sending) return;
  sending = true;
  let delay = 1000;
  while (actions.length && station) {
    const next = actions[0];
    let answer;
    try { answer = await api("POST", next.path || "/api/lecture/" + next.seq, next.body); } catch (e) {
      await sleep(delay); delay = Math.min(delay * 2, 8000); continue;
    }
    if (answer.status >= 500 || answer.status === 429) { await sleep(delay); delay = Math.min(delay * 2, 8000); continue; }
    actions.shift();
    saveActions();
    const card = cards.get(next.seq);
    if (card) card.element.querySelector(".actions").hidden = false;
    if (answer.status === 401 || answer.status === 403) { forget(answer.data.erreur); break; }
    say(answer.ok ? answer.data.message : answer.data.erreur, !answer.ok);
    if (card && !answer.ok) { card.version = null; }
  }
  sending = false;
}

// -- a bulletin typed without a photo: sent like an action (kept, retried with its id) -------
function openTyped() {
  if (!state || !state.coup_defaut) { say("aucun coup à corriger encore", true); return; }
  const form = $("form-saisie");
  form.reset();
  form.hidden = false;
  form.elements.table.focus();
}

function typedSent(event) {
  event.preventDefault();
  const form = $("form-saisie");
  const champs = {};
  for (const name of ["table", "word", "ref", "score", "raccord"]) {
    const v = form.elements[name].value.trim();
    champs[name] = name === "word" ? wordValue(v) : v.toUpperCase();
  }
  actions.push({ path: "/api/saisie", body: { id: newId(), coup: Number($("coup").value) || null, champs } });
  saveActions();
  form.hidden = true;
  sendActions();
}

// -- photos: queued in IndexedDB, sent one at a time, retried ---------------------------------
let db = null;
function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("kiosk-postes", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("envois", { keyPath: "envoi" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function store(mode) { return db.transaction("envois", mode).objectStore("envois"); }

function queued() {
  return new Promise((resolve) => {
    const request = store("readonly").getAll();
    request.onsuccess = () => resolve(request.result.sort((a, b) => a.ajoute - b.ajoute));
    request.onerror = () => resolve([]);
  });
}

function unqueue(envoi) {
  return new Promise((resolve) => {
    const request = store("readwrite").delete(envoi);
    request.onsuccess = request.onerror = () => resolve();
  });
}

async function enqueue(blob, name) {
  const item = { envoi: newId(), coup: Number($("coup").value) || null, blob, nom: name || "photo.jpg",
    ajoute: Date.now(), poste: station.poste };
  await new Promise((resolve, reject) => {
    const request = store("readwrite").put(item);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
  renderQueue();
  wakeAll();
  upload();
}

let waitingCount = 0;
async function renderQueue() {
  if (!db) return;
  const items = await queued();
  waitingCount = items.length;
  const reading = state ? state.envois.length : 0;
  const parts = [];
  if (items.length) parts.push(`${items.length} photo(s) en attente d'envoi${online ? "" : " (hors ligne)"}`);
  if (reading) parts.push(`${reading} photo(s) en lecture`);
  $("file").textContent = parts.join(" · ");
}

let uploading = false;
async function upload() {
  if (uploading || !db) return;
  uploading = true;
  let delay = 1000;
  for (;;) {
    if (!station) break;
    const items = (await queued()).filter((i) => !i.poste || i.poste === station.poste);
    if (!items.length) break;
    const item = items[0];
    const form = new FormData();
    form.append("envoi", item.envoi);
    if (item.coup) form.append("coup", String(item.coup));
    form.append("photo", item.blob, item.nom);
    let answer;
    try { answer = await api("POST", "/api/photo", form, true); } catch (e) {
      renderQueue();
      await sleep(delay); delay = Math.min(delay * 2, 15000); continue;
    }
    if (answer.status >= 500 || answer.status === 429 || answer.status === 408) {
      await sleep(delay); delay = Math.min(delay * 2, 15000); continue;
    }
    if (answer.status === 401 || answer.status === 403) { forget(answer.data.erreur); break; }
    delay = 1000;
    await unqueue(item.envoi);
    if (!answer.ok) say(answer.data.erreur, true);
    else if (answer.status === 202) say(answer.data.message);
    renderQueue();
  }
  uploading = false;
  renderQueue();
}

function pictures(event) {
  const files = Array.from(event.target.files || []);
  event.target.value = "";
  if (!state || !state.coup_defaut) { say("aucun coup à corriger encore", true); return; }
  for (const file of files) enqueue(file, file.name.replace(/[\\/]/g, "_"));
}

// -- the live viewfinder, where the browser allows the camera (HTTPS or the kiosk itself) ----
let stream = null;
async function openViewfinder() {
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment",
      width: { ideal: 1920 }, height: { ideal: 1440 } }, audio: false });
  } catch (e) { say("caméra indisponible : utilisez le bouton photo", true); return; }
  const video = $("video");
  video.srcObject = stream;
  await video.play();
  $("viseur").hidden = false;
}

function closeViewfinder() {
  if (stream) for (const track of stream.getTracks()) track.stop();
  stream = null;
  $("viseur").hidden = true;
}

function takePicture() {
  const video = $("video");
  const canvas = document.createElement("canvas");
  canvas.width = video.videoWidth; canvas.height = video.videoHeight;
  canvas.getContext("2d").drawImage(video, 0, 0);
  canvas.toBlob((blob) => { if (blob) enqueue(blob, "viseur.jpg"); }, "image/jpeg", 0.92);
}

// -- start ----------------------------------------------------------------------------------
async function blockChosen(event) {
  event.preventDefault();
  let answer;
  try { answer = await api("POST", "/api/bloc", { de: $("bloc-de").value, a: $("bloc-a").value }); }
  catch (e) { say("réseau indisponible : réessayez", true); return; }
  say(answer.ok ? answer.data.message : answer.data.erreur, !answer.ok);
}

function start() {
  $("rejoindre").hidden = true;
  poll();
  upload();
  sendActions();
}

async function init() {
  const params = new URLSearchParams(location.search);
  if (params.get("cle")) {
    sessionStorage.setItem(STORE + "-cle", params.get("cle"));
    history.replaceState(null, "", location.pathname); // the secret leaves the address bar
  }
  $("form-rejoindre").addEventListener("submit", join);
  $("message").addEventListener("click", () => { $("message").hidden = true; });
  $("photo").addEventListener("change", pictures);
  $("form-bloc").addEventListener("submit", blockChosen);
  $("bouton-saisie").addEventListener("click", openTyped);
  $("form-saisie").addEventListener("submit", typedSent);
  $("form-saisie").querySelector(".annuler-saisie").addEventListener("click", () => { $("form-saisie").hidden = true; });
  if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    $("bouton-viseur").hidden = false;
    $("bouton-viseur").addEventListener("click", openViewfinder);
    $("prendre").addEventListener("click", takePicture);
    $("fermer-viseur").addEventListener("click", closeViewfinder);
  }
  window.addEventListener("online", () => { wakeAll(); upload(); sendActions(); });
  try { db = await openDb(); } catch (e) { say("stockage du navigateur indisponible : les photos ne seront pas gardées hors ligne", true); }
  setInterval(() => { upload(); sendActions(); }, 5000);
  if (station && station.jeton) start(); else showJoin();
}

document.addEventListener("DOMContentLoaded", init);
