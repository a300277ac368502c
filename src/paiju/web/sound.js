// Short sound cues made with WebAudio (no audio files): your turn, a claim you may make, the hand is over.
// Muted by the per-browser `sound` preference.  Each cue played is also announced as a `paiju:cue` event on
// `window` (detail: the cue's name), for anything else that wants to react (a vibration, a test).

import { pref } from "./prefs.js";

// Notes (Hz), each [frequency, start s, length s].
const CUES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  claim: [[988, 0, 0.07], [988, 0.09, 0.07], [1319, 0.18, 0.12]],
  over: [[784, 0, 0.12], [659, 0.13, 0.12], [523, 0.26, 0.22]],
};

let audio = null;

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  return audio;
}

// Browsers start audio only after a gesture: wake the context on the first tap or key.
function unlock() {
  if (!pref("sound")) return;
  const ctx = context();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
}
document.addEventListener("pointerdown", unlock, { passive: true });
document.addEventListener("keydown", unlock);

export function cue(name) {
  const notes = CUES[name];
  if (!notes || !pref("sound")) return;
  const ctx = context();
  if (ctx) {
    const now = ctx.currentTime + 0.01;
    for (const [freq, at, len] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
  }
  window.dispatchEvent(new CustomEvent("paiju:cue", { detail: name }));
}
