package lesson

import (
	"fmt"
	"io/fs"
	"sort"

	"github.com/tidwall/gjson"
)

// Menu answers the lessons menu, the same JSON as Library.List, from the
// lesson files without decoding them: it reads only the fields a menu line
// shows. The browser's engine answers the menu with it while it starts and
// decodes and checks the lessons (Load) only when one is first opened, which
// keeps the whole of encoding/json's work off the page's first render. A
// file larger than MaxFile, or whose top level is not an object, is an error;
// anything else Parse would refuse shows in the menu and is reported when the
// lesson is opened (the repository's tests Load every lesson it ships).
func Menu(fsys fs.FS) ([]byte, error) {
	names := lessonFiles(fsys)
	type line struct {
		order int
		entry Entry
	}
	lines := make([]line, 0, len(names))
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if len(b) > MaxFile {
			return nil, fmt.Errorf("%s: larger than %d bytes", name, MaxFile)
		}
		doc := gjson.ParseBytes(b)
		if !doc.IsObject() {
			return nil, fmt.Errorf("%s: not a JSON object", name)
		}
		// Top-level fields only: a lesson has a dozen, so ForEach stops early
		// at none and skips each value's inside without decoding it.
		var l line
		doc.ForEach(func(key, value gjson.Result) bool {
			switch key.Str {
			case "id":
				l.entry.ID = value.Str
			case "order":
				l.order = int(value.Int())
			case "title":
				l.entry.Title = value.Str
			case "line":
				l.entry.Line = value.Str
			case "clients":
				for _, c := range value.Array() {
					l.entry.Clients = append(l.entry.Clients, c.Str)
				}
			case "steps":
				l.entry.Steps = len(value.Array())
			}
			return true
		})
		lines = append(lines, l)
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].order < lines[j].order })
	out := make([]Entry, len(lines))
	for i, l := range lines {
		out[i] = l.entry
	}
	return answer(out), nil
}
