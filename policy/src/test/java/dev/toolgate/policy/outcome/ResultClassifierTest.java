package dev.toolgate.policy.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResultClassifierTest {

  @ParameterizedTest
  @CsvSource({
    "429, backend_429",
    "503, backend_503",
    "500, backend_5xx_other",
    "502, backend_5xx_other",
    "400, backend_4xx_other",
    "404, backend_4xx_other"
  })
  void classifiesHttpStatusesAsTheSeedNamesThem(int status, String expected) {
    assertThat(ResultClassifier.ofHttpStatus(status).wireName()).isEqualTo(expected);
  }

  @Test
  void treatsInvalidParamsAsInvalidArgumentsAndOtherErrorsAsProtocolErrors() {
    assertThat(ResultClassifier.ofJsonRpcError(-32602)).isEqualTo(ResultClass.INVALID_ARGUMENTS);
    assertThat(ResultClassifier.ofJsonRpcError(-32603)).isEqualTo(ResultClass.PROTOCOL_ERROR);
  }

  @Test
  void aToolsBusinessErrorIsNotABackendFailure() {
    ResultClass toolError = ResultClassifier.ofToolResult(true);

    assertThat(toolError).isEqualTo(ResultClass.TOOL_ERROR);
    assertThat(toolError.isBackendFailure()).isFalse();
    assertThat(ResultClass.BACKEND_503.isBackendFailure()).isTrue();
  }

  @Test
  void refusesAnUnknownWireNameListingTheKnownOnes() {
    assertThatThrownBy(() -> ResultClass.fromWireName("backend_418"))
        .hasMessageStartingWith("unknown result class 'backend_418'; known: [success,");
  }
}
