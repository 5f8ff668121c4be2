package web

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// OpenBrowser asks the desktop to open url in the user's browser
// (xdg-open on Linux and the BSDs, open on macOS, rundll32 on Windows).
// It returns an error when no opener is installed or there is no display;
// the caller then prints the URL for the user to open.
func OpenBrowser(ctx context.Context, url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.CommandContext(ctx, "open", url)
	case "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no graphical display (DISPLAY and WAYLAND_DISPLAY unset)")
		}
		cmd = exec.CommandContext(ctx, "xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("opening the browser: %w", err)
	}
	go cmd.Wait()
	return nil
}
