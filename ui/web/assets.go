package web

import "io/fs"

// Assets returns the table page's embedded files (index.html, app.js,
// tiles.js, style.css): the replay viewer (package ui/viewer) draws its
// frames with the same code.
func Assets() fs.FS {
	sub, _ := fs.Sub(assets, "assets")
	return sub
}
