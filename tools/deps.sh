#!/usr/bin/env bash
# tools/deps.sh - make sure the build and test tools are installed.
#
# Checks for every tool `make run` and `make check` use and installs the
# missing Debian packages with apt-get (as root, or through sudo). Prints
# what it installs, and exactly what is missing when it cannot install.
# Exit status: 0 all present, 1 something is missing and could not be installed.
set -u

# "check|package": a check is a command name, or a path that must exist.
REQUIRED=(
	"gcc|gcc"
	"make|make"
	"ld|binutils"
	"objcopy|binutils"
	"nasm|nasm"
	"python3|python3"
	"qemu-system-x86_64|qemu-system-x86"
	"grub-mkrescue|grub-common"
	"/usr/lib/grub/i386-pc/moddep.lst|grub-pc-bin"
	"/usr/lib/grub/x86_64-efi/moddep.lst|grub-efi-amd64-bin"
	"xorriso|xorriso"
	"mformat|mtools"
	"/usr/share/OVMF/OVMF_CODE.fd|ovmf"
	"timeout|coreutils"
	# tools/bench.py report draws the paper's figures with Debian's matplotlib
	# (for /usr/bin/python3; the Makefile's PYTHON prefers it).
	"/usr/lib/python3/dist-packages/matplotlib/__init__.py|python3-matplotlib"
	# tools/bench.py capture reads a serial device with pyserial.
	"/usr/lib/python3/dist-packages/serial/__init__.py|python3-serial"
	# tools/bench.py serve, the lab's collector, runs on waitress; its page is
	# tested in headless Chromium through chromedriver and selenium
	# (tests/tools/t_serve.py).
	"/usr/lib/python3/dist-packages/waitress/__init__.py|python3-waitress"
	"/usr/lib/python3/dist-packages/selenium/__init__.py|python3-selenium"
	"chromium|chromium"
	"chromedriver|chromium-driver"
	# The QR code of the results: the encoder linked into the kernel
	# (kernel/qr.c), and the decoder of screen photos (tools/bench.py qr).
	"/usr/lib/x86_64-linux-gnu/libqrcodegen.a|libqrcodegen-dev"
	"/usr/include/qrcodegen/qrcodegen.h|libqrcodegen-dev"
	"zbarimg|zbar-tools"
	# Bochs, the second emulator of the boot tests (tests/boot/bochs.py): its
	# BIOS, its VGA BIOS, and the SDL2 display run headless.
	"bochs|bochs"
	"/usr/share/bochs/BIOS-bochs-latest|bochsbios"
	"/usr/share/vgabios/vgabios.bin|vgabios"
	"/usr/lib/x86_64-linux-gnu/bochs/plugins/libbx_sdl2_gui.so|bochs-sdl"
)

present() {
	case "$1" in
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

missing_pkgs=()
missing_what=()
for entry in "${REQUIRED[@]}"; do
	what=${entry%%|*}
	pkg=${entry##*|}
	if ! present "$what"; then
		missing_what+=("$what")
		case " ${missing_pkgs[*]-} " in
		*" $pkg "*) ;;
		*) missing_pkgs+=("$pkg") ;;
		esac
	fi
done

[ ${#missing_pkgs[@]} -eq 0 ] && exit 0

echo "deps: missing: ${missing_what[*]}"
echo "deps: installing Debian packages: ${missing_pkgs[*]}"

if [ "$(id -u)" -eq 0 ]; then
	SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	SUDO=(sudo -n)
else
	echo "deps: ERROR: not root and no password-less sudo; install them by hand:" >&2
	echo "deps:   sudo apt-get install ${missing_pkgs[*]}" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: ERROR: apt-get not found (not Debian/Ubuntu?); install the equivalents of: ${missing_pkgs[*]}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get update -q >/tmp/bench-deps-apt.log 2>&1; then
	echo "deps: ERROR: 'apt-get update' failed; its output is in /tmp/bench-deps-apt.log:" >&2
	tail -5 /tmp/bench-deps-apt.log >&2
	exit 1
fi
if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing_pkgs[@]}" \
	>>/tmp/bench-deps-apt.log 2>&1; then
	echo "deps: ERROR: 'apt-get install ${missing_pkgs[*]}' failed; its output is in /tmp/bench-deps-apt.log:" >&2
	tail -10 /tmp/bench-deps-apt.log >&2
	exit 1
fi

still=()
for entry in "${REQUIRED[@]}"; do
	what=${entry%%|*}
	present "$what" || still+=("$what")
done
if [ ${#still[@]} -ne 0 ]; then
	echo "deps: ERROR: still missing after the install: ${still[*]}" >&2
	exit 1
fi
echo "deps: installed ${missing_pkgs[*]}"
