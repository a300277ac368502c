// Preferences kept per browser (localStorage): sound cues, confirm before playing, the log left open.

const KEY = "paiju.prefs";
const DEFAULTS = { sound: true, confirm: false, logOpen: false };
const listeners = new Set();

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { ...DEFAULTS, ...(saved && typeof saved === "object" ? saved : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

let prefs = load();

export function pref(name) {
  return prefs[name];
}

export function setPref(name, value) {
  prefs = { ...prefs, [name]: value };
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch { /* kept for this page only */ }
  for (const fn of listeners) fn(name, value);
}

export function onPrefChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
