package dev.toolgate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DemoBackendMainTest {

  @Test
  void refusesAnEmptyTokenFileNamingItBeforeStartingAnything(@TempDir Path dir) throws Exception {
    Path empty = Files.writeString(dir.resolve("token"), "\n");
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new DemoBackendMain()).setErr(new PrintWriter(err));

    int code = cli.execute("--port", "0", "--require-bearer-file", empty.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--require-bearer-file " + empty + " is empty");
  }
}
