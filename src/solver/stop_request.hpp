#pragma once
// Graceful stop: SIGINT/SIGTERM ask the run to finish its current chunk of steps, write a checkpoint, flush its
// outputs and exit with 128 + signal (130, 143). A second signal, half a second or more after the first, ends the
// process at once (the outputs are crash-consistent, so nothing written before is lost); signals closer together
// are one request (`timeout` signals the process and then its process group).
namespace aerolbm {

// Installs the handlers (idempotent). Also ignores SIGXFSZ, so that a file-size limit makes writes fail with an
// error the run reports instead of killing the process.
void install_stop_handlers();

// 0, or the number of the signal that asked the run to stop. Safe from any thread.
int stop_requested();

// Clears a request (tests).
void clear_stop_request();

}  // namespace aerolbm
