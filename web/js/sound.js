// Sounds made with the Web Audio API, no audio files: the click of a stone
// on wood, a softer clatter for captures, and a chime when a game starts.

import { settings } from './settings.js';

/** @type {AudioContext | null} */
let ctx = null;

function context() {
  if (!ctx) {
    const Ctor = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return null;
    ctx = new Ctor();
  }
  // Browsers start audio suspended until the page is touched.
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/** Unlocks audio on the first touch or click (autoplay rules). */
export function unlockAudio() {
  const unlock = () => {
    context();
    removeEventListener('pointerdown', unlock);
    removeEventListener('keydown', unlock);
  };
  addEventListener('pointerdown', unlock);
  addEventListener('keydown', unlock);
}

/** A short burst of filtered noise with a low knock: slate on kaya. */
function click(ac, at, gain = 1, pitch = 1) {
  const length = Math.floor(ac.sampleRate * 0.09);
  const buffer = ac.createBuffer(1, length, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) {
    const t = i / length;
    data[i] = (Math.random() * 2 - 1) * Math.pow(1 - t, 6);
  }
  const noise = ac.createBufferSource();
  noise.buffer = buffer;
  const band = ac.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.value = 2300 * pitch;
  band.Q.value = 1.4;
  const noiseGain = ac.createGain();
  noiseGain.gain.value = 0.9 * gain;
  noise.connect(band).connect(noiseGain).connect(ac.destination);
  noise.start(at);

  const knock = ac.createOscillator();
  knock.type = 'sine';
  knock.frequency.setValueAtTime(210 * pitch, at);
  knock.frequency.exponentialRampToValueAtTime(90 * pitch, at + 0.07);
  const knockGain = ac.createGain();
  knockGain.gain.setValueAtTime(0.55 * gain, at);
  knockGain.gain.exponentialRampToValueAtTime(0.001, at + 0.09);
  knock.connect(knockGain).connect(ac.destination);
  knock.start(at);
  knock.stop(at + 0.1);
}

/** The sound of a stone played; with captures, the stones taken off after. */
export function stoneSound(captured = 0) {
  if (!settings.sound) return;
  const ac = context();
  if (!ac) return;
  const now = ac.currentTime + 0.005;
  click(ac, now);
  for (let i = 0; i < Math.min(captured, 6); i++) {
    click(ac, now + 0.16 + i * 0.055 + Math.random() * 0.02, 0.35, 1.5);
  }
}

/** Two soft notes: a game begins, a request arrives. */
export function chime() {
  if (!settings.sound) return;
  const ac = context();
  if (!ac) return;
  const now = ac.currentTime + 0.01;
  [660, 880].forEach((f, i) => {
    const o = ac.createOscillator();
    o.type = 'triangle';
    o.frequency.value = f;
    const g = ac.createGain();
    g.gain.setValueAtTime(0.0001, now + i * 0.14);
    g.gain.exponentialRampToValueAtTime(0.18, now + i * 0.14 + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.35);
    o.connect(g).connect(ac.destination);
    o.start(now + i * 0.14);
    o.stop(now + i * 0.14 + 0.4);
  });
}
