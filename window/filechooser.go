package window

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// FileChooser describes a file chooser dialog.
type FileChooser struct {
	// Title is the dialog's title.
	Title string
	// Dir is the folder listed first; "" is the current folder.
	Dir string
	// Extensions are the files listed (".yaml", ".yml"), compared without case; none lists
	// every file. Folders are always listed.
	Extensions []string
	// Save asks for a file to write rather than one to open: the field holds the file's
	// name (Name at first) and the list is not filtered by it (filechooser_save.go).
	Save bool
	Name string
}

// chooserRows is the most rows the chooser's list shows at once.
const chooserRows = 14

// chooserListTop is the row of the inside where the list starts: below the folder, the
// name field and a blank row.
const chooserListTop = 3

// doubleClick is the longest time between the two presses of a double click.
const doubleClick = 500 * time.Millisecond

// ChooseFile asks for a file: it lists the folder's sub-folders (with a trailing "/",
// ".." first to go up), then its files with one of the extensions. Typing filters the
// list by name (ignoring case; names starting with "." are listed only when the filter
// starts with "."); a path typed from "/" or "~" is where Enter goes. Enter enters a
// folder or takes a file, Backspace in an empty field goes up, a click highlights and a
// double click is Enter. Folders are read on another goroutine; what cannot be read is
// said in the dialog. onResult gets the file's absolute path and true; Esc and Dismiss
// give false. Call it on the UI goroutine; onResult runs there.
func (a *App) ChooseFile(fc FileChooser, onResult func(path string, ok bool)) *Dialog {
	c := &fileChooser{app: a, exts: normalExtensions(fc.Extensions), done: onResult,
		filter: NewInput(), list: NewList(), lastClick: -1, save: fc.Save, name: fc.Name}
	c.home, _ = os.UserHomeDir()
	c.list.Class, c.list.Selected = ClassDialog, ClassListSelected
	c.filter.OnChange = c.refilter
	c.filter.SetText(c.name)
	c.dialog = a.OpenDialog(fc.Title, c, func() {
		c.gen++ // a read under way is of no use now
		onResult("", false)
	})
	dir := fc.Dir
	if dir == "" {
		dir = "."
	}
	c.read(dir, "", false)
	return c.dialog
}

// fileEntry is a folder or a file of the folder listed.
type fileEntry struct {
	name  string
	lower string // name in lower case, for the filter
	dir   bool
	up    bool // the ".." entry
}

// folderRead is what reading a folder found, handed to the UI goroutine.
type folderRead struct {
	path    string // absolute and clean
	entries []fileEntry
	file    bool  // path is a file (a typed path): it is the choice
	problem Label // why it could not be listed; labelNone when it was
}

// fileChooser is the chooser's content; its fields belong to the UI goroutine.
type fileChooser struct {
	app    *App
	dialog *Dialog
	exts   []string
	done   func(path string, ok bool)
	home   string

	folder  string      // the folder listed, "" until the first read ends
	entries []fileEntry // its folders and files, sorted
	shown   []fileEntry // the rows: ".." and the entries the filter keeps
	filter  *Input
	list    *List

	gen        int    // the read whose answer is awaited; older answers are dropped
	reading    bool   // a read is under way
	readFilter string // the field's text when that read began
	// enterAfter: Enter was pressed while the folder was read (a name typed at once as
	// the dialog opened, then Enter): the listing, once shown, takes it.
	enterAfter  bool
	problem     Label  // why the last read failed, labelNone when it did not
	problemPath string // the path it failed on

	lastClick int       // the row of the last click, for double clicks
	clickAt   time.Time // and when it was

	onRead func() // called once each awaited read's answer is shown (tests wait on it)

	// save, name and moved are the save mode's (filechooser_save.go): the name proposed,
	// and whether the highlight was moved since the field last changed.
	save  bool
	name  string
	moved bool
}

// normalExtensions returns the extensions with a leading dot, in lower case.
func normalExtensions(exts []string) []string {
	var out []string
	for _, e := range exts {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" || e == "." {
			continue
		}
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		out = append(out, e)
	}
	return out
}

// read lists target on another goroutine; the rows change when it ends. selectName is the
// entry highlighted then (the folder just left, going up). acceptFile makes a file a
// choice rather than a problem (a typed path).
func (c *fileChooser) read(target, selectName string, acceptFile bool) {
	c.gen++
	c.reading = true
	c.readFilter = c.filter.Text()
	gen, exts, home, app := c.gen, c.exts, c.home, c.app
	app.Go(func() {
		var r folderRead
		if p := expandHome(target, home); strings.HasPrefix(p, "~") {
			r = folderRead{path: p, problem: LabelChooserMissing} // ~user, or no home
		} else {
			r = readFolder(p, exts, acceptFile)
		}
		app.Post(func() { c.readDone(gen, r, selectName) })
	})
}

// expandHome replaces a leading "~" by the home folder.
func expandHome(path, home string) string {
	if home != "" && (path == "~" || strings.HasPrefix(path, "~/")) {
		return filepath.Join(home, path[1:])
	}
	return path
}

// readFolder lists the folders and the files with one of exts (all files when none) of
// the folder at path, folders first, each sorted by name ignoring case. Symbolic links
// are followed; broken ones, and what is neither a folder nor a file, are left out. It
// does I/O: never call it on the UI goroutine.
func readFolder(path string, exts []string, acceptFile bool) folderRead {
	abs, err := filepath.Abs(path)
	if err != nil {
		return folderRead{path: filepath.Clean(path), problem: LabelChooserUnreadable}
	}
	r := folderRead{path: abs}
	info, err := os.Stat(abs)
	switch {
	case err != nil:
		r.problem = folderProblem(err)
		return r
	case info.Mode().IsRegular() && acceptFile:
		r.file = true
		return r
	case !info.IsDir():
		r.problem = LabelChooserNotFolder
		return r
	}
	des, err := os.ReadDir(abs)
	if err != nil && len(des) == 0 {
		r.problem = folderProblem(err)
		return r
	}
	for _, de := range des {
		name := de.Name()
		mode := de.Type()
		if mode&fs.ModeSymlink != 0 {
			fi, err := os.Stat(filepath.Join(abs, name))
			if err != nil {
				continue
			}
			mode = fi.Mode().Type()
		}
		switch {
		case mode.IsDir():
			r.entries = append(r.entries, fileEntry{name: name, lower: strings.ToLower(name), dir: true})
		case mode.IsRegular() && hasExtension(name, exts):
			r.entries = append(r.entries, fileEntry{name: name, lower: strings.ToLower(name)})
		}
	}
	sort.SliceStable(r.entries, func(i, j int) bool {
		a, b := r.entries[i], r.entries[j]
		if a.dir != b.dir {
			return a.dir
		}
		if a.lower != b.lower {
			return a.lower < b.lower
		}
		return a.name < b.name
	})
	return r
}

// hasExtension reports whether name ends with one of exts, ignoring case.
func hasExtension(name string, exts []string) bool {
	if len(exts) == 0 {
		return true
	}
	lower := strings.ToLower(name)
	for _, e := range exts {
		if strings.HasSuffix(lower, e) && len(lower) > len(e) {
			return true
		}
	}
	return false
}

// folderProblem says in a label why a folder could not be read.
func folderProblem(err error) Label {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return LabelChooserDenied
	case errors.Is(err, fs.ErrNotExist):
		return LabelChooserMissing
	case errors.Is(err, syscall.ENOTDIR):
		return LabelChooserNotFolder
	}
	return LabelChooserUnreadable
}

// readDone shows what a read found, if it is the one awaited and the dialog is open.
func (c *fileChooser) readDone(gen int, r folderRead, selectName string) {
	if gen != c.gen || !c.dialog.Open() {
		return
	}
	if c.onRead != nil {
		defer c.onRead()
	}
	c.reading = false
	enter := c.enterAfter
	c.enterAfter = false
	switch {
	case r.file:
		c.take(r.path)
		return
	case r.problem != labelNone:
		c.problem, c.problemPath = r.problem, r.path
		if c.folder == "" {
			// Nothing listed yet: this folder, empty, with ".." to leave it.
			c.folder = r.path
			c.refilter()
		}
		return
	}
	c.problem = labelNone
	c.folder, c.entries = r.path, r.entries
	if c.save || c.filter.Text() != c.readFilter {
		// The field holds the name to save under, or what the user typed while the
		// folder was read (the dialog had just opened): it stays.
		c.refilter()
	} else {
		c.filter.SetText("") // refilters
	}
	for i, e := range c.shown {
		if e.name == selectName && e.dir && !e.up {
			c.list.Select(i)
		}
	}
	if enter && c.filter.Text() != "" {
		c.activate(c.list.Current())
	}
}

// take closes the dialog with path as its result.
func (c *fileChooser) take(path string) {
	c.gen++
	c.dialog.Close()
	c.done(path, true)
}

// typedPath reports whether the field holds a path to go to rather than a filter.
func typedPath(s string) bool { return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") }

// refilter lists ".." and the entries whose name contains the filter, ignoring case;
// names starting with "." only when the filter does. While a path is typed, the list
// stays unfiltered.
func (c *fileChooser) refilter() {
	f := c.filter.Text()
	if typedPath(f) || c.save {
		f = ""
	}
	c.moved = false
	lf := strings.ToLower(f)
	hidden := strings.HasPrefix(f, ".")
	c.shown = nil
	if c.folder != "" && filepath.Dir(c.folder) != c.folder && strings.Contains("..", lf) {
		c.shown = append(c.shown, fileEntry{name: "..", dir: true, up: true})
	}
	for _, e := range c.entries {
		if strings.HasPrefix(e.name, ".") && !hidden || !strings.Contains(e.lower, lf) {
			continue
		}
		c.shown = append(c.shown, e)
	}
	items := make([]ListItem, len(c.shown))
	for i, e := range c.shown {
		items[i] = ListItem{Text: e.name}
		if e.dir {
			items[i].Text += "/"
		}
	}
	c.list.SetItems(items)
	first := 0
	if f == "" && len(c.shown) > 1 && c.shown[0].up {
		first = 1 // the first entry of the folder rather than the way out
	}
	c.list.Select(first)
	c.lastClick = -1
}

// activate enters the folder of row i, or takes its file.
func (c *fileChooser) activate(i int) {
	if i < 0 || i >= len(c.shown) {
		return
	}
	e := c.shown[i]
	switch {
	case e.up:
		c.up()
	case e.dir:
		c.read(filepath.Join(c.folder, e.name), "", false)
	case c.save:
		c.filter.SetText(e.name) // the name to save under: Enter again replaces it
	default:
		c.take(filepath.Join(c.folder, e.name))
	}
}

// up lists the folder above, the one left highlighted.
func (c *fileChooser) up() {
	if c.folder == "" || filepath.Dir(c.folder) == c.folder {
		return
	}
	c.read(filepath.Dir(c.folder), filepath.Base(c.folder), false)
}

// Size, Draw, HandleEvent and Hints make the chooser a DialogContent.

func (c *fileChooser) Size(_ Labels, maxW, maxH int) (int, int) {
	return maxW, chooserListTop + max(min(maxH-chooserListTop-1, chooserRows), 1) + 1
}

func (c *fileChooser) Draw(r Region, l Labels) {
	W, H := r.Size()
	bg := r.style(ClassDialog)
	n := r.text(0, 0, l.T(LabelChooserFolder)+" ", bg)
	n += r.text(n, 0, truncateLeft(c.shortPath(c.folder), W-n), bg)
	r.spaces(n, 0, W-n, bg)
	n = r.text(0, 1, l.T(LabelChooserName)+" ", bg)
	c.filter.Draw(r.Sub(n, 1, W-n, 1), true)
	r.spaces(0, 2, W, bg)
	listH := max(H-chooserListTop-1, 0)
	if len(c.shown) == 0 {
		empty := LabelNoMatch
		if c.reading {
			empty = LabelChooserReading
		} else if c.filter.Text() == "" || typedPath(c.filter.Text()) {
			empty = LabelChooserEmpty
		}
		for y := chooserListTop; y < chooserListTop+listH; y++ {
			n := 0
			if y == chooserListTop {
				n = r.text(1, y, l.T(empty), r.style(ClassMenuDisabled)) + 1
				r.spaces(0, y, 1, bg)
			}
			r.spaces(n, y, W-n, bg)
		}
	} else {
		c.list.Draw(r.Sub(0, chooserListTop, W, listH), true)
	}
	c.drawFoot(r.Sub(0, H-1, W, 1), l)
}

// drawFoot says, on the last row, what went wrong, or what is under way, or which files
// are listed.
func (c *fileChooser) drawFoot(r Region, l Labels) {
	W, _ := r.Size()
	var text string
	class := ClassDialog
	switch {
	case c.problem != labelNone:
		text, class = l.Tf(c.problem, c.shortPath(c.problemPath)), ClassDialogError
	case c.reading && c.folder != "":
		text = l.T(LabelChooserReading)
	case c.save:
		text = l.T(LabelChooserSaveFoot)
	case typedPath(c.filter.Text()):
		text = l.T(LabelChooserGoTo)
	case len(c.exts) == 0:
		text = l.T(LabelChooserAllFiles)
	default:
		pats := make([]string, len(c.exts))
		for i, e := range c.exts {
			pats[i] = "*" + e
		}
		text = l.Tf(LabelChooserShowing, strings.Join(pats, " "))
	}
	st := r.style(class)
	n := r.text(0, 0, truncate(text, W), st)
	r.spaces(n, 0, W-n, r.style(ClassDialog))
}

// shortPath writes a path under the home folder from "~".
func (c *fileChooser) shortPath(p string) string {
	if c.home == "" || c.home == "/" {
		return p
	}
	if p == c.home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, c.home+string(filepath.Separator)); ok {
		return "~/" + rest
	}
	return p
}

// truncateLeft cuts s to at most width cells, keeping its end and starting with "…" when
// something was cut: the end of a path says the most.
func truncateLeft(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if TextWidth(s) <= width {
		return s
	}
	cs := clusters(s)
	used, i := 0, len(cs)
	for i > 0 && used+cs[i-1].width <= width-1 {
		i--
		used += cs[i].width
	}
	var b strings.Builder
	b.WriteString("…")
	for _, x := range cs[i:] {
		b.WriteString(x.text)
	}
	return b.String()
}

func (c *fileChooser) HandleEvent(d *Dialog, ev Event) bool {
	switch ev := ev.(type) {
	case Key:
		switch {
		case ev.Is(Named(KeyEnter, 0)) && c.save:
			c.saveEnter()
			return true
		case ev.Is(Named(KeyEnter, 0)):
			if f := c.filter.Text(); typedPath(f) {
				c.read(f, "", true)
			} else if c.reading {
				c.enterAfter = true
			} else {
				c.activate(c.list.Current())
			}
			return true
		case ev.Is(Named(KeyBackspace, 0)) && c.filter.Text() == "":
			c.up()
			return true
		}
		c.enterAfter = false // another key: the Enter waiting is not for what the field now holds
		if c.list.HandleEvent(ev) {
			c.lastClick, c.moved = -1, true
			return true
		}
		return c.filter.HandleEvent(ev)
	case Paste:
		return c.filter.HandleEvent(ev)
	case Mouse:
		return c.mouse(ev)
	}
	return false
}

// mouse handles a click in the field or the list, and the wheel: a click highlights a
// row, a second click on it soon after is Enter.
func (c *fileChooser) mouse(ev Mouse) bool {
	if ev.Action == MouseWheelUp || ev.Action == MouseWheelDown {
		return c.list.HandleEvent(Mouse{X: ev.X, Y: ev.Y - chooserListTop, Action: ev.Action})
	}
	if ev.Action != MousePress {
		return false
	}
	if ev.Y == 1 {
		n := TextWidth(c.app.labels.T(LabelChooserName) + " ")
		return c.filter.HandleEvent(Mouse{X: ev.X - n, Y: 0, Action: ev.Action})
	}
	if ev.Y < chooserListTop || ev.Y-chooserListTop >= c.list.height || len(c.shown) == 0 {
		return false // above the list, or on the last row, below it
	}
	if !c.list.HandleEvent(Mouse{X: ev.X, Y: ev.Y - chooserListTop, Action: ev.Action}) {
		return false
	}
	i, now := c.list.Current(), c.app.now()
	if i == c.lastClick && now.Sub(c.clickAt) < doubleClick {
		c.lastClick = -1
		c.activate(i)
		return true
	}
	c.lastClick, c.clickAt, c.moved = i, now, true
	return true
}

func (c *fileChooser) Hints() []Hint {
	if c.save {
		return []Hint{
			{Keys: "↑↓", Label: LabelHintMove},
			{Keys: "Enter", Label: LabelHintSave},
			{Keys: "Bksp", Label: LabelHintParent},
		}
	}
	return []Hint{
		{Keys: "↑↓", Label: LabelHintMove},
		{Keys: "Enter", Label: LabelHintOpen},
		{Keys: "Bksp", Label: LabelHintParent},
		{Keys: "abc", Label: LabelHintFilter},
	}
}
