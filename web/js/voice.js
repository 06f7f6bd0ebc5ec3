// The timekeeper's voice: byo-yomi calls spoken with the Web Speech API in
// Chinese or English, as the settings say.

import { settings } from './settings.js';

const synth = typeof speechSynthesis === 'undefined' ? null : speechSynthesis;
/** @type {SpeechSynthesisVoice[]} */
let voices = [];

function loadVoices() {
  voices = synth?.getVoices() ?? [];
}
if (synth) {
  loadVoices();
  synth.addEventListener?.('voiceschanged', loadVoices);
}

function voiceFor(lang) {
  const prefix = lang === 'zh' ? 'zh' : 'en';
  const candidates = voices.filter((v) => v.lang.toLowerCase().startsWith(prefix));
  const mainland = candidates.find((v) => /zh[-_]CN/i.test(v.lang));
  return (prefix === 'zh' && mainland) || candidates.find((v) => v.localService) || candidates[0] || null;
}

/** Whether this browser can speak. */
export const canSpeak = () => Boolean(synth);

/**
 * Speaks a call in the language the settings choose.
 * @param {{zh: string, en: string}} call
 */
export function speakCall(call) {
  if (!settings.voice || !synth) return;
  const lang = settings.voiceLang;
  const text = lang === 'zh' ? call.zh : call.en;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = lang === 'zh' ? 'zh-CN' : 'en-US';
  const voice = voiceFor(lang);
  if (voice) utterance.voice = voice;
  // The count "1" … "10" comes every second: a late number is dropped
  // rather than heard after its second. Other calls queue ("1分", "还剩4分").
  const count = /^\d+$/.test(text);
  utterance.rate = count ? 1.25 : 1.05;
  if (count && (synth.pending || synth.speaking)) synth.cancel();
  synth.speak(utterance);
}

/** Speaks any sentence in the call language (the answer to "how much time"). */
export function speakText(text) {
  speakCall({ zh: text, en: text });
}
