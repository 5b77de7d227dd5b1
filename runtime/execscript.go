package runtime

// execScript is the one shell program the container and sbx workspaces run, as
//
//	sh -c execScript sidekicks OP ROOT PATH [PATH2]
//
// OP is read=MAX for a read of at most MAX bytes, lines=LINE,COUNT,MAX for COUNT lines
// (all when negative) from line LINE, at most MAX bytes of them (numbers written by this
// program).
// Paths are positional arguments, never part of the program's text. It resolves ROOT and
// PATH (every symbolic link, the last name too for read, write, list and mkdir; the parent
// only for rename, delete and walk) and runs OP only when neither changed: otherwise it
// prints the resolved root and paths, each followed by a NUL byte, and exits 65 so that
// the caller checks them (inside the root? protected?) and calls again with them.
//
// Exit statuses: 64 a dangling link, 65 paths to check again, 66 the destination exists,
// 67 no such file, 68 a folder where a file is expected, 69 the workspace is missing, 70
// not a regular file (a named pipe, a device), 71 a file over MAX bytes (its size printed),
// 72 the image lacks a program the operation needs, or an option of one (readlink -f,
// stat -c): what is missing is printed, separated by commas.
// A read copies at most MAX+1 bytes (head -c): the caller refuses more than MAX.
const execScript = `
op=$1 root=$2
shift 2
case $op in
read=*) max=${op#read=} op=read ;;
lines=*)
	a=${op#lines=}
	line=${a%%,*} a=${a#*,}
	count=${a%%,*} max=${a#*,}
	op=lines
	;;
esac
fail() { printf 'sidekicks: %s\n' "$2" >&2; exit "$1"; }
# lacking W: the image lacks W (a program, or a program and its option).
lacking() { printf '%s' "$1"; fail 72 "the image lacks $1"; }
# need P…: every program the operation uses is there (command -v is the shell's own).
need() {
	m=
	for c in readlink "$@"; do
		command -v "$c" >/dev/null 2>&1 || m="$m, $c"
	done
	[ -z "$m" ] || lacking "${m#, }"
}
case $op in
read) need stat head ;;
lines) need tail head ;;
write) need mkdir mktemp cat stat chmod mv ;;
list) need stat ;;
mkdir) need mkdir ;;
walk) need find ;;
delete) need rm ;;
rename) need mkdir mv ;;
esac
# stat -c is GNU's and BusyBox's: another stat fails on it.
statc() { stat -c %s / >/dev/null 2>&1 || lacking "stat -c"; }
# rp P: sets RP to the real path of P, whose last names may not exist yet.
rp() {
	p=$1 t=
	while [ ! -e "$p" ] && [ ! -L "$p" ]; do
		t="/${p##*/}$t"
		p=${p%/*}
		[ -n "$p" ] || p=/
	done
	[ -e "$p" ] || return 1
	p=$(readlink -f -- "$p" && printf x) || {
		readlink -f / >/dev/null 2>&1 || lacking "readlink -f"
		return 1
	}
	p=${p%??}
	[ "$p" = / ] && p=
	RP=$p$t
	[ -n "$RP" ] || RP=/
}
# rpp P: like rp for the parent of P, P's own name kept as it is.
rpp() {
	rp "${1%/*}" || return 1
	[ "$RP" = / ] && RP=
	RP=$RP/${1##*/}
}
[ -d "$root" ] || fail 69 "no workspace folder"
rp "$root" || fail 69 "no workspace folder"
R=$RP
case $op in
rename|delete|walk) res=rpp ;;
*) res=rp ;;
esac
changed=
[ "$R" = "$root" ] || changed=1
set -- "$@" --
while [ "$1" != -- ]; do
	$res "$1" || fail 64 "a symbolic link that leads nowhere: $1"
	[ "$RP" = "$1" ] || changed=1
	set -- "$@" "$RP"
	shift
done
shift
if [ -n "$changed" ]; then
	printf '%s\0' "$R" "$@"
	exit 65
fi
p=$1
case $op in
read)
	[ -d "$p" ] && fail 68 "is a folder"
	[ -e "$p" ] || fail 67 "no such file"
	[ -f "$p" ] || fail 70 "not a regular file"
	s=$(stat -c %s -- "$p") || { statc; exit 1; }
	if [ "$s" -gt "$max" ]; then
		printf '%s' "$s"
		exit 71
	fi
	exec head -c "$((max + 1))" -- "$p"
	;;
lines)
	[ -d "$p" ] && fail 68 "is a folder"
	[ -e "$p" ] || fail 67 "no such file"
	[ -f "$p" ] || fail 70 "not a regular file"
	if [ "$count" -lt 0 ]; then
		tail -n "+$line" -- "$p" | head -c "$((max + 1))"
	else
		tail -n "+$line" -- "$p" | head -n "$count" | head -c "$((max + 1))"
	fi
	;;
write)
	[ -d "$p" ] && fail 68 "is a folder"
	d=${p%/*}
	mkdir -p -- "${d:-/}" || exit 1
	# The temporary file has a name nobody can predict, and is created only where nothing
	# is (noclobber): a link planted in the folder redirects nothing. Neither it nor the
	# target may be a link when the file is moved in place.
	tmp=$(mktemp -u -- "${d}/.${p##*/}.sidekicks-tmp.XXXXXXXXXX") || exit 1
	trap 'rm -f -- "$tmp"' EXIT
	set -C
	cat > "$tmp" || exit 1
	set +C
	if [ -L "$tmp" ] || [ ! -f "$tmp" ] || [ -L "$p" ]; then
		fail 1 "a link appeared where the file is written"
	fi
	if [ -e "$p" ]; then
		m=$(stat -c %a -- "$p") || { statc; exit 1; }
		chmod "$m" "$tmp" || exit 1
	fi
	mv -f -- "$tmp" "$p" || exit 1
	;;
list)
	[ -d "$p" ] || fail 67 "no such folder"
	for f in "$p"/* "$p"/.[!.]* "$p"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		k=f
		[ -d "$f" ] && k=d
		s=$(stat -c '%s %Y' -- "$f") || { statc; continue; }
		printf '%s\0%s\0%s\0' "$k" "$s" "${f##*/}"
	done
	;;
mkdir)
	exec mkdir -p -- "$p"
	;;
walk)
	[ -e "$p" ] || [ -L "$p" ] || fail 67 "no such file"
	if [ -d "$p" ] && [ ! -L "$p" ]; then
		exec find "$p" -print0
	fi
	;;
delete)
	[ -e "$p" ] || [ -L "$p" ] || fail 67 "no such file"
	exec rm -rf -- "$p"
	;;
rename)
	[ -e "$p" ] || [ -L "$p" ] || fail 67 "no such file"
	[ -e "$2" ] || [ -L "$2" ] && fail 66 "the destination exists"
	d=${2%/*}
	mkdir -p -- "${d:-/}" || exit 1
	exec mv -- "$p" "$2"
	;;
*)
	fail 2 "unknown operation"
	;;
esac
`
