package lesson

import (
	"io/fs"
	"strings"
)

// lessonFiles names the *.json entries of fsys's top folder, sorted, as
// fs.Glob(fsys, "*.json") does (a folder that cannot be listed has none).
// It lists through fsys's own ReadDir, which every file system the engine
// is given has (embed.FS, os.DirFS, fstest.MapFS): fs.Glob would link a
// sort of directory entries into app.wasm for a listing that is sorted
// already.
func lessonFiles(fsys fs.FS) []string {
	d, ok := fsys.(fs.ReadDirFS)
	if !ok {
		return nil
	}
	entries, err := d.ReadDir(".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	return names
}
