// web/lessons/progress.js is responsible for remembering, in this browser,
// which steps of which lessons a person has run. Storage may be missing or
// full: progress then lasts for the visit.
const KEY = "tableplay-lessons";

export class Progress {
  constructor() {
    this.data = {};
    try {
      this.data = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    } catch {
      this.data = {};
    }
  }

  done(id) {
    if (!id) return new Set();
    return new Set(this.data[id]?.done ?? []);
  }

  mark(id, step) {
    const entry = this.data[id] ?? { done: [] };
    if (!entry.done.includes(step)) entry.done.push(step);
    entry.last = step;
    this.data[id] = entry;
    this.data[""] = { recent: id };
    this.save();
  }

  // recent is the lesson a step was last run in, if any.
  recent() {
    return this.data[""]?.recent;
  }

  last(id) {
    return this.data[id]?.last;
  }

  save() {
    try {
      localStorage.setItem(KEY, JSON.stringify(this.data));
    } catch {
      // kept in memory for this visit
    }
  }
}
