// ChildProcess hands a child only stdin, stdout and stderr: a descriptor the test process has
// open without close-on-exec (another test's pipe) must not reach an Xvfb or a player it starts.

import Glibc
import Testing
import X11TestSupport

@Suite struct ChildProcessTests {
    /// A pipe whose write end a long-lived child inherited never reports end-of-file to its
    /// reader (a CI run once hung 20 minutes reading such a pipe to its end). posix_spawn returns
    /// once the child has executed, its file actions done, so the pipe's state is settled when
    /// the poll looks: no waiting.
    @Test func aChildHoldsNoDescriptorItWasNotGiven() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // no close-on-exec, as a pipe another test made might be
        defer { close(ends[0]) }
        let child = try ChildProcess("/bin/sleep", ["30"])
        close(ends[1])
        var reader = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&reader, 1, 0) == 1)
        #expect(reader.revents & Int16(POLLHUP) != 0, "the child holds the pipe's write end")
        child.kill(SIGKILL)
        #expect(child.wait(timeout: 10) == 128 + SIGKILL)
    }
}
