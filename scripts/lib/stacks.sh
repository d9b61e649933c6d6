# The stacks besides the machine's own (Debian 12), each a Debian chroot made
# once and kept outside the clone, so the same scripts run against it:
#   newest      today's packages: Debian sid (Trilinos 16.1, PETSc 3.25,
#               DOLFINx 0.11, deal.II 9.7, NumPy 2, Eigen 5, GCC 16, CMake 4,
#               Open MPI 6): `scripts/test --newest`, `scripts/bench --newest`
#   trilinos17  a copy of the sid chroot with Trilinos 17.0 from Debian
#               experimental (no Epetra; built with GO = int) in place of
#               16.1, and without deal.II's -dev package, which Debian builds on
#               16.1: `scripts/test --trilinos17`, `scripts/bench --trilinos17`
# Sourced by common.sh, not run.
#
# The chroots live in $DAPETRA_CHROOTS (default /var/cache/dapetra: sid/ and
# trilinos17/), each with its own package cache and ccache, so a second run
# only builds what changed. DAPETRA_CHROOT_REFRESH=1 makes them anew. Inside,
# the clone is mounted at /dapetra and builds go to build/<stack>/.

DAPETRA_CHROOTS=${DAPETRA_CHROOTS:-/var/cache/dapetra}

# The stacks' flags, as scripts/test and scripts/bench take them.
DAPETRA_CHROOT_STACKS=(newest trilinos17)

# What the host needs to make a chroot.
DAPETRA_STACK_HOST_PACKAGES=(debootstrap)

# The Epetra-based Trilinos packages: Trilinos 17 has none of them.
DAPETRA_EPETRA_PACKAGES=(epetra epetraext aztecoo triutils ml ifpack amesos isorropia)

dapetra_stack_root() {
  case "$1" in
    newest) echo "$DAPETRA_CHROOTS/sid" ;;
    trilinos17) echo "$DAPETRA_CHROOTS/trilinos17" ;;
    *) echo "no stack named $1 (stacks: ${DAPETRA_CHROOT_STACKS[*]})" >&2; return 1 ;;
  esac
}

# The Debian mirror this machine's apt already uses (debootstrap's default
# otherwise), so the chroot reaches the same registry.
dapetra_debian_mirror() {
  local uri
  uri=$(grep -hE '^\s*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' |
    grep -v -- '-security' | head -n 1)
  [ -z "$uri" ] && uri=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  echo "${uri:-http://deb.debian.org/debian}"
}

# dapetra_stack_make_chroot STACK: the stack's chroot, made once.
dapetra_stack_make_chroot() {
  local root
  root=$(dapetra_stack_root "$1") || return 1
  if [ "${DAPETRA_CHROOT_REFRESH:-0}" = 1 ]; then rm -rf "$root"; fi
  [ -f "$root/etc/dapetra-chroot" ] && return 0
  rm -rf "$root.partial"
  mkdir -p "$(dirname "$root")"
  case "$1" in
    newest) _dapetra_make_sid "$root.partial" || return 1 ;;
    trilinos17) _dapetra_make_trilinos17 "$root.partial" || return 1 ;;
  esac
  date -u +%FT%TZ >"$root.partial/etc/dapetra-chroot"
  rm -rf "$root"
  mv "$root.partial" "$root"
}

_dapetra_make_sid() {
  local dir=$1
  command -v debootstrap >/dev/null || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${DAPETRA_STACK_HOST_PACKAGES[@]}" >/dev/null
  }
  dapetra_step "making the sid chroot in $dir (once)"
  debootstrap --variant=minbase sid "$dir" "$(dapetra_debian_mirror)" \
    >"$dir.debootstrap.log" 2>&1 || { tail -n 30 "$dir.debootstrap.log"; return 1; }
  # sid's Release file is signed with an expiry date that has passed.
  echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99dapetra"
  mkdir -p "$dir/dapetra"
}

# dapetra_stack_prepare STACK: the stack's chroot made and its packages
# installed, nothing built: what CI does in the background while Debian 12's
# stages compile (downloads and unpacking, which the compiler does not wait for).
dapetra_stack_prepare() {
  dapetra_stack_make_chroot "$1" || return 1
  dapetra_step "installing the $1 stack's packages"
  dapetra_stack_run "$1" 'source scripts/lib/common.sh && dapetra_install_deps'
}

# Trilinos 17.0 beside sid's everything else: sid's chroot copied, then
# experimental's Trilinos pinned above sid's, every Trilinos -dev package of
# 16.1 removed (and deal.II's, which needs all of them) and the 17.0 ones
# installed by scripts/test's own package list.
_dapetra_make_trilinos17() {
  local dir=$1 sid
  dapetra_stack_make_chroot newest || return 1
  sid=$(dapetra_stack_root newest)
  dapetra_step "making the Trilinos 17.0 chroot in $dir from $sid (once)"
  cp -a --reflink=auto "$sid" "$dir"
  rm -f "$dir/etc/dapetra-chroot"
  echo "deb $(dapetra_debian_mirror) experimental main" >"$dir/etc/apt/sources.list.d/experimental.list"
  printf 'Package: libtrilinos-* trilinos-*\nPin: release a=experimental\nPin-Priority: 990\n' \
    >"$dir/etc/apt/preferences.d/trilinos17"
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -euc '
    apt-get update -qq
    dev=$(dpkg-query -W -f="\${Package} \${Status}\n" "libtrilinos-*-dev" trilinos-all-dev libdeal.ii-dev 2>/dev/null |
      awk "/install ok installed/ {print \$1}")
    [ -z "$dev" ] || DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq $dev
  ' >"$dir.log" 2>&1 || { tail -n 30 "$dir.log"; return 1; }
}

# dapetra_stack_run STACK COMMAND: COMMAND (a bash string) inside the stack's
# chroot, in /dapetra, with DAPETRA_STACK=STACK. /proc, /sys, /dev and the
# clone are mounted in a private mount namespace, so they go when the command
# ends, however it ends.
dapetra_stack_run() {
  local root
  root=$(dapetra_stack_root "$1") || return 1
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  unshare --mount --propagation private bash -euc '
    root=$1; src=$2; stack=$3; shift 3
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --rbind /dev "$root/dev"
    mount --bind "$src" "$root/dapetra"
    passed=()  # what the host was told, passed on only when set
    for name in DAPETRA_TEST_SEED DAPETRA_JOBS CI; do
      [ -n "${!name:-}" ] && passed+=("$name=${!name}")
    done
    exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DAPETRA_STACK="$stack" "${passed[@]}" \
      bash -euc "cd /dapetra && $1"
  ' dapetra-stack "$root" "$DAPETRA_ROOT" "$1" "$2"
}

# dapetra_stack_of ARG: the stack an argument such as --newest names, or nothing.
dapetra_stack_of() {
  local s
  for s in "${DAPETRA_CHROOT_STACKS[@]}"; do
    [ "$1" = "--$s" ] && { echo "$s"; return 0; }
  done
  return 0
}
