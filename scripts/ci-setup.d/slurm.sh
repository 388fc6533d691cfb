# Part of scripts/ci-setup.sh (sourced; apt_install is defined there).
# A single-node Slurm cluster for the sweep tests (sweep: argos sweep
# --slurm), and irace (r-cran-irace) for argos irace. PID 1 is not systemd
# here, so munged, slurmctld and slurmd are started directly, with a
# minimal slurm.conf for this one machine and its real CPU count and memory.
# Idempotent: daemons already running with the same configuration are left
# alone; a changed configuration restarts the ones this script started.
apt_install munge slurm-wlm r-cran-irace

slurm_setup() {
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  local host cpus mem conf=/etc/slurm/slurm.conf tmp
  host=$(hostname -s)
  cpus=$(nproc --all)
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)

  # munge: the key the Debian package made, or a new one
  if [ ! -s /etc/munge/munge.key ]; then
    $sudo mkdir -p /etc/munge
    $sudo dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  $sudo chown munge:munge /etc/munge/munge.key
  $sudo chmod 0400 /etc/munge/munge.key
  $sudo mkdir -p /run/munge /var/log/munge /var/lib/munge
  $sudo chown munge:munge /run/munge /var/log/munge /var/lib/munge
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    $sudo runuser -u munge -- /usr/sbin/munged --force
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  fi

  tmp=$(mktemp)
  cat >"$tmp" <<EOF
# Written by scripts/ci-setup.d/slurm.sh: a one-node cluster for the tests.
ClusterName=argos
SlurmctldHost=${host}(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SchedulerParameters=sched_interval=1
MinJobAge=60
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  $sudo mkdir -p /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
  local changed=0
  if ! cmp -s "$tmp" "$conf"; then
    $sudo cp "$tmp" "$conf"
    changed=1
  fi
  rm -f "$tmp"

  local d pid
  for d in slurmctld slurmd; do
    pid=$(cat "/run/$d.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      [ "$changed" = 1 ] || continue
      $sudo kill "$pid"
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    $sudo "/usr/sbin/$d"
  done

  # wait for the node to take jobs
  local state=""
  for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -n1 || true)
    case "$state" in
      idle*|mixed*|allocated*) break ;;
      down*|drain*) $sudo scontrol update nodename="$host" state=resume 2>/dev/null || true ;;
    esac
    sleep 1
  done
  case "$state" in
    idle*|mixed*|allocated*) echo "ci-setup: slurm: node $host is $state ($cpus CPUs, ${mem} MB)" ;;
    *) echo "ci-setup: slurm: node $host did not come up (state '${state}'); see /var/log/slurm/"; return 1 ;;
  esac
}
slurm_setup
