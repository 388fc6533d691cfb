package epuck

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// PTY serves a Firmware on a pseudo-terminal: a driver opens Path as it
// would open the robot's serial port. With a link path, Path is a
// symbolic link to the terminal, which Reconnect points at a new terminal
// after Hangup, the way a udev or rfcomm name comes back when a cable or
// a Bluetooth link does.
type PTY struct {
	fw   *Firmware
	link string

	mu     sync.Mutex
	master *os.File
	slave  *os.File
	name   string
	served chan error
}

// ServePTY opens a pseudo-terminal and serves fw on it until Close. When
// link is not empty, it is created as a symbolic link to the terminal
// (an existing link is replaced).
func ServePTY(fw *Firmware, link string) (*PTY, error) {
	p := &PTY{fw: fw, link: link}
	if err := p.open(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *PTY) open() error {
	m, s, err := pty.Open()
	if err != nil {
		return fmt.Errorf("emulator/epuck: opening a pseudo-terminal: %w", err)
	}
	if err := makeRaw(s); err != nil {
		m.Close()
		s.Close()
		return err
	}
	// pty.Open leaves the master in blocking mode; a pollable copy lets
	// Hangup's Close interrupt the firmware's pending read.
	if m, err = pollable(m); err != nil {
		s.Close()
		return err
	}
	if p.link != "" {
		tmp := p.link + ".new"
		os.Remove(tmp)
		if err := os.Symlink(s.Name(), tmp); err != nil {
			m.Close()
			s.Close()
			return fmt.Errorf("emulator/epuck: %w", err)
		}
		if err := os.Rename(tmp, p.link); err != nil {
			m.Close()
			s.Close()
			return fmt.Errorf("emulator/epuck: %w", err)
		}
	}
	// The slave stays open for the terminal's life: without it the
	// master would see a hang-up whenever no driver has the port open.
	p.master, p.slave, p.name = m, s, s.Name()
	p.served = make(chan error, 1)
	go func() { p.served <- p.fw.Serve(m) }()
	return nil
}

func pollable(f *os.File) (*os.File, error) {
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("emulator/epuck: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("emulator/epuck: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

// makeRaw turns off echo, line editing and byte translation, so that
// binary commands pass unchanged even before the driver sets the port up.
func makeRaw(f *os.File) error {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fmt.Errorf("emulator/epuck: terminal settings: %w", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fmt.Errorf("emulator/epuck: terminal settings: %w", err)
	}
	return nil
}

// Path returns what a driver opens: the link, or the terminal's name.
func (p *PTY) Path() string {
	if p.link != "" {
		return p.link
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

// Hangup closes the terminal, as a pulled cable or a lost Bluetooth
// link: the driver's reads and writes fail. The firmware keeps its state
// (the motors keep their last speed, as on the robot).
func (p *PTY) Hangup() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.master == nil {
		return nil
	}
	err := errors.Join(p.master.Close(), p.slave.Close())
	err = errors.Join(err, <-p.served)
	p.master, p.slave = nil, nil
	return err
}

// Reconnect opens a new terminal after Hangup and points the link at it.
func (p *PTY) Reconnect() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.master != nil {
		return errors.New("emulator/epuck: the terminal is still connected; call Hangup first")
	}
	if p.link == "" {
		return errors.New("emulator/epuck: Reconnect needs a link path (ServePTY's link), since a new terminal gets a new name")
	}
	return p.open()
}

// Close hangs up and removes the link.
func (p *PTY) Close() error {
	err := p.Hangup()
	if p.link != "" {
		if rerr := os.Remove(p.link); rerr != nil && !os.IsNotExist(rerr) {
			err = errors.Join(err, rerr)
		}
	}
	return err
}
