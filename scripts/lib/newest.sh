# The second stack: today's packages (Debian sid: Trilinos 16, PETSc 3.25,
# DOLFINx 0.11, NumPy 2, Eigen 5, GCC 16, CMake 4, Open MPI 6) in a chroot
# made once with debootstrap and kept outside the clone, so the same scripts
# run against it: `scripts/test --newest`, `scripts/bench --newest`.
# Sourced by common.sh, not run.
#
# The chroot lives in $DAPETRA_NEWEST_ROOT (default /var/cache/dapetra/sid),
# with its own package cache and ccache, so a second run only builds what
# changed. DAPETRA_NEWEST_REFRESH=1 makes it anew (today's sid). Inside it the
# clone is mounted at /dapetra and builds go to build/newest/.

DAPETRA_NEWEST_ROOT=${DAPETRA_NEWEST_ROOT:-/var/cache/dapetra/sid}
DAPETRA_NEWEST_SUITE=${DAPETRA_NEWEST_SUITE:-sid}

# The Debian mirror this machine's apt already uses (debootstrap's default
# otherwise), so the chroot reaches the same registry.
dapetra_debian_mirror() {
  local uri
  uri=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' |
    grep -v -- '-security' | head -n 1)
  [ -z "$uri" ] && uri=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  echo "$uri"
}

dapetra_newest_make_chroot() {
  local root=$DAPETRA_NEWEST_ROOT
  if [ "${DAPETRA_NEWEST_REFRESH:-0}" = 1 ]; then rm -rf "$root"; fi
  [ -f "$root/etc/dapetra-chroot" ] && return 0
  command -v debootstrap >/dev/null || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  }
  echo "== making the $DAPETRA_NEWEST_SUITE chroot in $root (once)"
  rm -rf "$root.partial"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase "$DAPETRA_NEWEST_SUITE" "$root.partial" $(dapetra_debian_mirror) \
    >"$root.debootstrap.log" 2>&1 || { tail -n 30 "$root.debootstrap.log"; return 1; }
  # sid's Release file is signed with an expiry date that has passed.
  echo 'Acquire::Check-Valid-Until "false";' >"$root.partial/etc/apt/apt.conf.d/99dapetra"
  mkdir -p "$root.partial/dapetra"
  date -u +%FT%TZ >"$root.partial/etc/dapetra-chroot"
  rm -rf "$root"
  mv "$root.partial" "$root"
}

# dapetra_newest_run COMMAND: COMMAND (a bash string) inside the chroot, in
# /dapetra, with DAPETRA_STACK=newest. /proc, /sys, /dev and the clone are
# mounted in a private mount namespace, so they go when the command ends,
# however it ends.
dapetra_newest_run() {
  local root=$DAPETRA_NEWEST_ROOT
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  unshare --mount --propagation private bash -euc '
    root=$1; src=$2; shift 2
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --rbind /dev "$root/dev"
    mount --bind "$src" "$root/dapetra"
    passed=()  # what the host was told, passed on only when set
    for name in DAPETRA_TEST_SEED DAPETRA_JOBS CI; do
      [ -n "${!name:-}" ] && passed+=("$name=${!name}")
    done
    exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DAPETRA_STACK=newest "${passed[@]}" \
      bash -euc "cd /dapetra && $1"
  ' dapetra-newest "$root" "$DAPETRA_ROOT" "$1"
}
