package dev.toolgate.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.toolgate.e2e.support.LocalHazelcast;
import dev.toolgate.e2e.support.LocalProcess;
import dev.toolgate.e2e.support.LocalState;
import dev.toolgate.e2e.support.LoopbackPorts;
import dev.toolgate.e2e.support.PassThroughConfig;
import dev.toolgate.e2e.support.SidecarImage;
import dev.toolgate.trust.SigningKey;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;

/**
 * What the sidecar costs an agent, side by side in one run: MCP {@code tools/call} traffic (1 KiB
 * of arguments) at fixed rates, one call at a time and to saturation, against the demo backend with
 * a fixed service time, direct; through Debian's nginx as a plain reverse proxy; through the
 * sidecar in pass-through (no tool rule); and through the sidecar enforcing seed 000's policy with
 * its shared state on a Hazelcast member. Every server is its own process; the load comes from this
 * JVM. Prints latency added over direct (p50, p99, p99.9), CPU per 1,000 calls/s, resident memory
 * under load, the added p50 one call at a time against nginx's with each proxy's CPU per call (its
 * busiest thread's and its JIT's part), the saturation throughput against nginx's with what bounds
 * it (each target's busiest thread and the machine's busy share: {@link CpuShares}), and the
 * sidecar's time from process start to ready; then the goals judged on those readings ({@link
 * Goals}).
 *
 * <p>Run with {@code bench/run} (see bench/README.md); {@code --help} lists the options.
 */
public final class LoadBench {

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String TOOL = "get_deployment_job";
  private static final String WORK = "bench/target/load";

  /**
   * The pace of the first calls: an agent's, not a load test's, so the JIT has compiled little yet.
   */
  private static final int FIRST_CALLS_PER_SECOND = 50;

  /**
   * The rows of nginx, pass-through and the full policy (a compared build's add a suffix): the
   * goals read them by name.
   */
  static final String NGINX = "nginx";

  /** Direct loaded a second time: the machine's noise between two identical targets. */
  static final String CONTROL = "direct (control)";

  static final String PASS_THROUGH = "pass-through";
  static final String FULL_POLICY = "full policy";

  private final Path root;

  /**
   * The sidecar's runtime.warmupCalls for the first-calls line's warmed-up sidecar; 0: no such
   * line.
   */
  private final int warmupCalls;

  private final Path work;
  private final Path logs;
  private final List<LocalProcess> processes = new CopyOnWriteArrayList<>();

  /** Set once stopAll has begun; from then on no process is kept. */
  private volatile boolean stopping;

  /** Attached to every loaded sidecar and to the Vert.x relay, or null. */
  private final Profiler profiler;

  /** The calls over --slow-calls, by phase and target; off unless asked for. */
  private SlowCalls slowCalls = SlowCalls.OFF;

  /** The targets the profiler was attached to, in the order they started. */
  private final List<String> profiled = new CopyOnWriteArrayList<>();

  /** What the goals are judged on, gathered as the tables are printed. */
  private final Goals.Readings goals = new Goals.Readings();

  /** Where calls go; a sidecar also has its admin port, whose metrics say how much it allocates. */
  record Target(String name, String url, LocalProcess process, String metricsUrl) {
    Target(String name, String url, LocalProcess process) {
      this(name, url, process, null);
    }

    /**
     * The sidecar's counters now, from its own /metrics (zero for a target that is not a sidecar).
     */
    SidecarCounters counters() {
      if (metricsUrl == null) {
        return SidecarCounters.NONE;
      }
      try {
        String body =
            PROBE
                .send(
                    HttpRequest.newBuilder(URI.create(metricsUrl)).build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
        return SidecarCounters.of(body);
      } catch (IOException e) {
        return SidecarCounters.NONE;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return SidecarCounters.NONE;
      }
    }

    /**
     * The bytes one scrape of the sidecar's /metrics allocates (two scrapes back to back: what lies
     * between the counter's two readings is one scrape's work), or 0 where the sidecar's counter
     * only moves at a young GC and cannot tell.
     */
    double bytesPerScrape() {
      SidecarCounters first = counters();
      SidecarCounters second = counters();
      return first.exactAllocation() && second.exactAllocation()
          ? Math.max(0, second.allocatedBytes() - first.allocatedBytes())
          : 0;
    }
  }

  /**
   * Bytes a sidecar's JVM allocated so far ({@code jvm_memory_allocated_bytes_total}, exact at any
   * moment; from a compared build from before that metric, {@code
   * jvm_gc_memory_allocated_bytes_total}, which only grows at a young GC, a whole eden at a time),
   * its GC pause time in ms ({@code jvm_gc_pause_seconds_sum}), its JIT compilers' time in ms
   * ({@code jvm_compilation_time_ms_total}), and its quota checks that waited for the shared state
   * ({@code toolgate_quota_waits_total}). NaN for a counter the sidecar does not report: quota
   * waits on local state, either of the last two in a compared build from before its metric. {@code
   * exactAllocation} says which allocation counter was read.
   */
  record SidecarCounters(
      double allocatedBytes,
      boolean exactAllocation,
      double gcMillis,
      double compileMillis,
      double quotaWaits) {
    static final SidecarCounters NONE = new SidecarCounters(0, false, 0, Double.NaN, Double.NaN);

    /** The counters in a Prometheus scrape of a sidecar's /metrics. */
    static SidecarCounters of(String scrape) {
      List<String> allocated = samples(scrape, "jvm_memory_allocated_bytes_total");
      return new SidecarCounters(
          sum(
              allocated.isEmpty()
                  ? samples(scrape, "jvm_gc_memory_allocated_bytes_total")
                  : allocated),
          !allocated.isEmpty(),
          1000 * sum(samples(scrape, "jvm_gc_pause_seconds_sum")),
          sumOrNaN(samples(scrape, "jvm_compilation_time_ms_total")),
          sumOrNaN(samples(scrape, "toolgate_quota_waits_total")));
    }

    /**
     * How these counters grew since {@code before}: the allocation exact only where both readings
     * were, NaN where either had no such counter.
     */
    SidecarCounters since(SidecarCounters before) {
      return new SidecarCounters(
          allocatedBytes - before.allocatedBytes,
          exactAllocation && before.exactAllocation,
          gcMillis - before.gcMillis,
          compileMillis - before.compileMillis,
          quotaWaits - before.quotaWaits);
    }

    /**
     * Of a growth ({@link #since}), the quota checks that waited for the shared state per 1,000 of
     * {@code calls}: NaN where either scrape had no such counter (local state, a compared build
     * from before it, a target that is not a sidecar) or no call was made.
     */
    double quotaWaitsPerThousand(long calls) {
      return calls == 0 ? Double.NaN : quotaWaits * 1000 / calls;
    }

    private static double sumOrNaN(List<String> samples) {
      return samples.isEmpty() ? Double.NaN : sum(samples);
    }

    private static List<String> samples(String scrape, String metric) {
      return scrape
          .lines()
          .filter(l -> l.startsWith(metric + "{") || l.startsWith(metric + " "))
          .toList();
    }

    private static double sum(List<String> samples) {
      return samples.stream()
          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
          .sum();
    }
  }

  private LoadBench(Path root, int warmupCalls, Profiler profiler) throws IOException {
    this.root = root;
    this.warmupCalls = warmupCalls;
    this.profiler = profiler;
    this.work = root.resolve(WORK);
    this.logs = work.resolve("logs");
    Files.createDirectories(logs);
  }

  public static void main(String[] args) throws Exception {
    if (LoadBenchOptions.wantsHelp(args)) {
      System.out.print(LoadBenchOptions.usage());
      return;
    }
    LoadBenchOptions options;
    Profiler profiler = null;
    Path root = Path.of(System.getProperty("toolgate.root", ".")).toAbsolutePath().normalize();
    try {
      options = LoadBenchOptions.parse(args);
      if (options.profile() != null) {
        profiler = Profiler.of(options.profile(), root.resolve(WORK));
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.print("error: " + e.getMessage() + "\n\n" + LoadBenchOptions.usage());
      System.exit(2);
      return;
    }
    WorkLock lock;
    try {
      lock = WorkLock.acquire(root.resolve(WORK));
    } catch (IllegalStateException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    try (lock) {
      LoadBench bench = new LoadBench(root, options.warmupCalls(), profiler);
      // Ctrl-C or a SIGTERM ends the JVM without the finally below: the hook stops the children
      // then.
      Runtime.getRuntime().addShutdownHook(new Thread(bench::stopAll, "stop-children"));
      try {
        bench.run(options);
      } finally {
        bench.stopAll();
      }
      if (profiler != null) {
        bench.printFlameGraphs(profiler);
      }
    }
    System.exit(0);
  }

  /** Where each profiled target's flame graph is, written when it stopped. */
  private void printFlameGraphs(Profiler profiler) {
    System.out.printf(
        Locale.ROOT,
        "%nflame graphs (async-profiler, %s: %s; each process's whole run)%n",
        profiler.event().agentName(),
        profiler.event().description());
    for (String name : profiled) {
      Path graph = profiler.flameGraph(name);
      System.out.printf(
          Locale.ROOT,
          "  %-24s %s%n",
          name,
          Files.isRegularFile(graph)
              ? root.relativize(graph)
              : "missing (see bench/target/load/logs)");
    }
  }

  /**
   * Stops every process this benchmark started: the kept ones in order, then any other descendant
   * (a training step of the image, a process that outlived its parent), waiting up to 15 s each.
   */
  private void stopAll() {
    stopping = true;
    processes.forEach(LocalProcess::close);
    processes.clear();
    List<ProcessHandle> rest = ProcessHandle.current().descendants().toList();
    rest.forEach(ProcessHandle::destroy);
    for (ProcessHandle p : rest) {
      try {
        p.onExit().get(15, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      } catch (ExecutionException | TimeoutException e) {
        p.destroyForcibly();
      }
    }
  }

  /**
   * One client for the benchmark's own requests (each HttpClient owns a selector thread), HTTP/1.1
   * as a kubelet asks.
   */
  private static final HttpClient PROBE =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** One second of load on one target. */
  interface Turn {
    LoadGenerator.Result take(Target target, LoadGenerator g) throws Exception;
  }

  /**
   * {@code seconds} one-second turns on each target, the targets taken in turn, each round starting
   * one target further on: no target always follows the same one (in a fixed order, direct loaded
   * twice measured +1.9 ms p99 slice by slice against itself). Returns what each target's turns
   * measured, added up.
   */
  static Map<Target, LoadGenerator.Result> inTurns(
      Map<Target, LoadGenerator> generators, int seconds, Turn turn) throws Exception {
    List<Map.Entry<Target, LoadGenerator>> round = new ArrayList<>(generators.entrySet());
    Map<Target, LoadGenerator.Result> sums = new LinkedHashMap<>();
    for (int second = 0; second < seconds; second++) {
      for (int k = 0; k < round.size(); k++) {
        Map.Entry<Target, LoadGenerator> e = round.get((second + k) % round.size());
        sums.merge(e.getKey(), turn.take(e.getKey(), e.getValue()), LoadGenerator.Result::plus);
      }
    }
    return sums;
  }

  /**
   * One setting of the demo backend's; a refusal ends the run rather than measure something else.
   */
  private static void setBackend(String url, String json) throws Exception {
    HttpResponse<String> r =
        PROBE.send(
            HttpRequest.newBuilder(URI.create(url))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 204) {
      throw new IllegalStateException(
          "the demo backend refused "
              + json
              + " at "
              + url
              + ": "
              + r.statusCode()
              + " "
              + r.body());
    }
  }

  /** Whether the process has printed {@code text} on its standard output. */
  private static boolean said(LocalProcess process, String text) {
    try {
      return Files.readString(process.stdout()).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether {@code url} answers 200. The port is tried first with a bare connect: a refused request
   * through HttpClient costs this process enough CPU, 100 times a second, to slow a starting
   * sidecar on 2 cores by ~0.3 s (measured against a poller in another process).
   */
  private static boolean ok(String url) {
    URI uri = URI.create(url);
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 1_000);
    } catch (IOException e) {
      return false;
    }
    try {
      return PROBE
              .send(
                  HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (Exception e) {
      return false;
    }
  }

  private static void waitFor(String what, BooleanSupplier condition, LocalProcess process)
      throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline || (process != null && !process.alive())) {
        throw new IllegalStateException(what + " did not come up (see bench/target/load/logs)");
      }
      Thread.sleep(10); // polling a child process's port: no event to wait on
    }
  }

  private Path jar(String module, String name) {
    return built(root.resolve(module).resolve("target").resolve(name));
  }

  /**
   * A target's name as its log and flame graph files have it: "full policy (w)" is
   * "full-policy-w-".
   */
  static String fileName(String target) {
    return target.replaceAll("[^a-zA-Z0-9.-]+", "-");
  }

  static Path built(Path jar) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar
              + " is missing: build its checkout first (./mvnw -B -DskipTests install;"
              + " bench/run does it for this one)");
    }
    return jar;
  }

  private LocalProcess keep(LocalProcess p) {
    if (stopping) {
      // Started while the benchmark was being stopped: the sweep may already have passed it.
      p.close();
      throw new IllegalStateException("the benchmark is stopping");
    }
    processes.add(p);
    return p;
  }

  private void run(LoadBenchOptions o) throws Exception {
    slowCalls = SlowCalls.over(o.slowCallsMs(), work.resolve("slow-calls.tsv"));
    try {
      load(o);
    } finally {
      Path written = slowCalls.write();
      if (written != null) {
        System.out.printf(
            Locale.ROOT,
            "%nslow calls: %d over %d ms, in %s%n",
            slowCalls.count(),
            o.slowCallsMs(),
            root.relativize(written));
      }
    }
  }

  private void load(LoadBenchOptions o) throws Exception {
    int backendPort = LoopbackPorts.next();
    LocalProcess backend =
        keep(
            LocalProcess.java(
                "backend",
                logs,
                List.of(
                    "-XX:+UseParallelGC",
                    "-jar",
                    jar("e2e/demo-backend", "toolgate-demo-backend.jar").toString(),
                    "--host",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(backendPort))));
    String backendUrl = "http://127.0.0.1:" + backendPort;
    waitFor(
        "the demo backend",
        () -> ok(backendUrl + "/ledger") && said(backend, "listening on"),
        backend);
    // Its service time's timers: on NIO its loop polls through the last half millisecond before
    // each
    // one, CPU charged to whichever target calls it least often (docs/performance.md).
    String backendTimers =
        said(backend, "(epoll)") ? "epoll" : "NIO (polled through the last 0.5 ms before each)";
    setBackend(backendUrl + "/latency/" + TOOL, "{\"ms\":" + o.serviceMs() + "}");
    setBackend(backendUrl + "/answers/" + TOOL, "{\"format\":\"" + o.answers() + "\"}");

    int hazelcastPort = LoopbackPorts.next();
    startHazelcast(hazelcastPort);
    List<SidecarBuild> builds = new ArrayList<>(List.of(SidecarBuild.stage("", root, work, logs)));
    if (o.compare() != null) {
      builds.add(
          SidecarBuild.stage(" (" + o.compare().getFileName() + ")", o.compare(), work, logs));
    }

    List<Target> targets = new ArrayList<>();
    targets.add(new Target("direct", backendUrl + "/mcp", null));
    if (o.targets().contains("control")) {
      // The same path as direct, loaded as one more target: its deltas are what the machine alone
      // puts between two identical targets, the resolution of every other row's.
      targets.add(new Target(CONTROL, backendUrl + "/mcp", null));
    }
    if (o.targets().contains("nginx")) {
      targets.add(startNginx(backendPort));
    }
    if (o.targets().contains("vertx-relay")) {
      targets.add(startRelay(backendUrl, builds.get(0)));
    }
    for (SidecarBuild b : builds) {
      if (o.targets().contains("pass-through")) {
        String name = PASS_THROUGH + b.suffix();
        targets.add(startSidecar(name, passThrough(name, backendUrl), b));
      }
      if (o.targets().contains("full")) {
        String name = FULL_POLICY + b.suffix();
        targets.add(startSidecar(name, fullPolicy(b, name, backendUrl, hazelcastPort), b));
      }
      if (o.targets().contains("full-api") && b.hasApiMode()) {
        // The same policy on the state service: the difference from "full policy" is HTTPS and a
        // token to the service instead of a Hazelcast client.
        String name = "full, api" + b.suffix();
        targets.add(startSidecar(name, fullPolicyOnApi(b, name, backendUrl, state()), b));
      }
      if (o.targets().contains("full-local")) {
        // The same policy without Hazelcast: the difference from "full policy" is the shared
        // state's.
        String name = "full, local" + b.suffix();
        targets.add(startSidecar(name, fullPolicy(b, name, backendUrl, -1), b));
      }
    }

    String arguments = "{\"job_id\":\"j1\",\"note\":\"" + "x".repeat(1000) + "\"}";
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\""
            + TOOL
            + "\",\"arguments\":"
            + arguments
            + "}}";
    // Native epoll where it loads: the calls leave when due, to the microsecond. Netty's NIO loop
    // sleeps whole milliseconds, rounded to the nearest, and its calls drifted up to half a
    // millisecond late, which read every proxy's added latency low (docs/performance.md).
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    Map<Target, LoadGenerator> generators = new LinkedHashMap<>();
    for (Target t : targets) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < o.sessions(); i++) {
        ids.add(initialize(t.url()));
      }
      generators.put(t, new LoadGenerator(vertx, t.url(), ids, body, 256, t.name(), slowCalls));
    }
    System.out.printf(
        Locale.ROOT,
        "cores: %d; backend service time %d ms, answers %s; arguments 1 KiB; %d MCP session(s) per target;"
            + " %d s warm-up per target at saturation and as many at the lowest rate,"
            + " then per rate %d s of the same load and %d one-second slices per target taken in turn%s; latency from when each call was due (open loop),"
            + " calls spaced %s; the generator's timers on %s, the backend's on %s; each sidecar's /metrics scraped %s%n",
        Runtime.getRuntime().availableProcessors(),
        o.serviceMs(),
        o.answers().toUpperCase(Locale.ROOT),
        o.sessions(),
        o.warmup(),
        o.settle(),
        o.seconds(),
        o.rates().contains(Goals.RATE) && o.slicesAt(Goals.RATE) != o.seconds()
            ? String.format(
                Locale.ROOT, " (%d at the goals' %d calls/s)", o.slicesAt(Goals.RATE), Goals.RATE)
            : "",
        o.arrivals().describe(),
        vertx.isNativeTransportEnabled()
            ? "epoll (to the microsecond)"
            : "NIO (whole milliseconds: calls sent up to 0.5 ms late)",
        backendTimers,
        ScrapeSchedule.describe(o.scrapeInterval()));
    // Warm up at saturation, then at the lowest rate: thousands of calls a second get the hot path
    // compiled by C2, and the paths a slow rate takes (an event loop woken per call, timers) get
    // theirs. A warm-up at 1,000 calls/s alone left compilation running into the first measured
    // rate (its CPU per call read 1.14 instead of 0.29 at 500 calls/s). Warm-up, settling and
    // saturation are taken in one-second turns over the targets, as the slices are: each target's
    // load ends as near its measurement as the others', so none is measured while C2 still compiles
    // more than the rest (loaded one after the other, the first of two identical full-policy
    // sidecars read 11-15 % less CPU per call than the second: docs/performance.md).
    int lowest = Collections.min(o.rates());
    slowCalls.phase("warm-up");
    inTurns(generators, o.warmup(), (t, g) -> g.saturate(o.inFlight(), 1));
    inTurns(generators, o.warmup(), (t, g) -> g.fixedRate(lowest, 1, o.arrivals()));
    try (MemoryReclaim reclaim =
        o.reclaimMarginMs() == 0
            ? MemoryReclaim.NONE
            : MemoryReclaim.find(Path.of("/proc"), System::nanoTime).start()) {
      for (int rate : o.rates()) {
        FixedRates.run(generators, rate, o, slowCalls, goals, reclaim);
      }
      reclaim.stalls().bursts().forEach(slowCalls::stall);
    }
    OneCallAtATime.run(generators, o.settle(), o.seconds(), slowCalls, goals);
    System.out.printf(
        Locale.ROOT,
        "%nsaturation (%d calls in flight, %d one-second turns per target taken in turn;"
            + " top thread: the target's busiest thread, in cores; machine: the busy share of all cores;"
            + " stolen: the share of their time the hypervisor says it gave another guest, which slows the turns it falls in"
            + " (0.00 where it says nothing: some hypervisors take time without reporting it);"
            + " cpu: the target's CPU time per call, all its threads; machine µs/call: the busy time of all cores per call,"
            + " every process of the run included, stolen time not, which the calls a second follow on shared cores;"
            + " peak: the most the target has held resident since its start, warm-up and saturation included;"
            + " waits/1k: its quota checks that waited for a round trip to the shared state, per 1,000 calls)%n"
            + "%-22s %10s %10s %10s %10s %8s %7s %12s %16s %9s %9s%n",
        o.inFlight(),
        o.seconds(),
        "target",
        "calls/s",
        "vs nginx",
        "p99 ms",
        "top thread",
        "machine",
        "stolen",
        "cpu µs/call",
        "machine µs/call",
        "peak MiB",
        "waits/1k");
    Map<String, Double> saturation = new LinkedHashMap<>();
    slowCalls.phase("settle saturation");
    inTurns(generators, o.settle(), (t, g) -> g.saturate(o.inFlight(), 1));
    slowCalls.phase("saturation");
    Map<Target, CpuShares> shares = new LinkedHashMap<>();
    Map<Target, SidecarCounters> countersBefore = new LinkedHashMap<>();
    generators.keySet().forEach(t -> countersBefore.put(t, t.counters()));
    Map<Target, LoadGenerator.Result> saturated =
        inTurns(
            generators,
            o.seconds(),
            (t, g) -> {
              List<Long> pids = t.process() == null ? List.of() : t.process().pids();
              CpuShares.Turn turn = CpuShares.start(pids);
              LoadGenerator.Result r = g.saturate(o.inFlight(), 1);
              shares.computeIfAbsent(t, k -> new CpuShares()).end(turn, pids);
              return r;
            });
    for (Map.Entry<Target, LoadGenerator.Result> e : saturated.entrySet()) {
      LoadGenerator.Result r = e.getValue();
      CpuShares cpu = shares.get(e.getKey());
      LocalProcess process = e.getKey().process();
      double peakMib = process == null ? Double.NaN : process.peakResidentMib();
      saturation.put(e.getKey().name(), r.throughput());
      double processMicros = cpu.processMicrosPerCall(r.completed());
      double machineMicros = cpu.machineMicrosPerCall(r.completed());
      double waits =
          e.getKey()
              .counters()
              .since(countersBefore.get(e.getKey()))
              .quotaWaitsPerThousand(r.completed());
      goals.saturation(e.getKey().name(), r.throughput(), machineMicros, cpu.machineStolen());
      goals.peak(e.getKey().name(), peakMib);
      System.out.printf(
          Locale.ROOT,
          "%-22s %10.0f %10s %10.3f %10s %8s %7s %12s %16s %9s %9s%n",
          e.getKey().name(),
          r.throughput(),
          cell(
              saturation.containsKey(NGINX),
              "%.2f",
              r.throughput() / saturation.getOrDefault(NGINX, 1.0)),
          ms(r.latencyMicros(), 99),
          cell(process != null, "%.2f", cpu.busiestThread()),
          cell(!Double.isNaN(cpu.machineBusy()), "%.2f", cpu.machineBusy()),
          cell(!Double.isNaN(cpu.machineStolen()), "%.2f", cpu.machineStolen()),
          cell(!Double.isNaN(processMicros), "%.0f", processMicros),
          cell(!Double.isNaN(machineMicros), "%.0f", machineMicros),
          cell(process != null, "%.1f", peakMib),
          cell(!Double.isNaN(waits), "%.2f", waits));
    }
    if (o.firstCalls() > 0) {
      firstCalls(
          vertx,
          builds,
          backendUrl,
          hazelcastPort,
          body,
          generators.get(targets.get(0)),
          o.firstCalls(),
          o.arrivals());
    }
    generators.values().forEach(LoadGenerator::close);
    vertx.close();
    timeToReady(o.starts(), builds);
    System.out.print(Goals.table(Goals.judge(goals)));
  }

  /**
   * Per build, a freshly started sidecar with the full policy as it runs in a cluster (Hazelcast
   * client): its time from process start to ready, then its first {@code calls} calls at 50 a
   * second, each one-second slice followed by one of direct's, and its resident memory after them.
   * What an agent pays before the hot path is compiled, and what a sidecar holds at an agent's
   * pace. Then, for this checkout, the same with the sidecar's warm-up on, measured once it is
   * done.
   */
  private void firstCalls(
      Vertx vertx,
      List<SidecarBuild> builds,
      String backendUrl,
      int hazelcastPort,
      String body,
      LoadGenerator direct,
      int calls,
      Arrivals arrivals)
      throws Exception {
    int slices = Math.max(1, calls / FIRST_CALLS_PER_SECOND);
    System.out.printf(
        Locale.ROOT,
        "%nfirst calls (a fresh sidecar, full policy on a Hazelcast client: its first %d calls"
            + " after ready, or after its warm-up where it has one, at %d calls/s, slices taken in turn with direct's)%n"
            + "%-22s %8s %8s %8s %8s %8s %8s %8s %8s%n",
        slices * FIRST_CALLS_PER_SECOND,
        FIRST_CALLS_PER_SECOND,
        "target",
        "ready ms",
        "warm ms",
        "p50 ms",
        "p99 ms",
        "+p50",
        "+p99",
        "rss MiB",
        "anon MiB");
    for (SidecarBuild b : builds) {
      String target = "first calls" + b.suffix();
      firstCalls(
          vertx,
          b,
          target,
          fullPolicy(b, target, backendUrl, hazelcastPort),
          body,
          direct,
          slices,
          false,
          arrivals);
    }
    if (warmupCalls > 0) {
      String target = "warm-up " + warmupCalls;
      Path config = fullPolicy(builds.get(0), target, backendUrl, hazelcastPort);
      ObjectNode doc = (ObjectNode) YAML.readTree(config.toFile());
      doc.putObject("runtime").put("warmupCalls", warmupCalls);
      YAML.writeValue(config.toFile(), doc);
      firstCalls(vertx, builds.get(0), target, config, body, direct, slices, true, arrivals);
    }
  }

  private void firstCalls(
      Vertx vertx,
      SidecarBuild build,
      String name,
      Path config,
      String body,
      LoadGenerator direct,
      int slices,
      boolean warmedUp,
      Arrivals arrivals)
      throws Exception {
    long start = System.nanoTime();
    Target t = startSidecar(name, config, build);
    long readyMillis = (System.nanoTime() - start) / 1_000_000;
    String warmMillis = "-";
    if (warmedUp) {
      waitForWarmup(t);
      warmMillis = Long.toString((System.nanoTime() - start) / 1_000_000);
    }
    Histogram sidecar = new Histogram(60_000_000L, 3);
    Histogram baseline = new Histogram(60_000_000L, 3);
    slowCalls.phase("first calls");
    try (LoadGenerator g =
        new LoadGenerator(
            vertx, t.url(), List.of(initialize(t.url())), body, 8, t.name(), slowCalls)) {
      for (int slice = 0; slice < slices; slice++) {
        sidecar.add(g.fixedRate(FIRST_CALLS_PER_SECOND, 1, arrivals).latencyMicros());
        baseline.add(direct.fixedRate(FIRST_CALLS_PER_SECOND, 1, arrivals).latencyMicros());
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-22s %8s %8s %8.3f %8.3f %8s %8s %8s %8s%n",
        "direct",
        "-",
        "-",
        ms(baseline, 50),
        ms(baseline, 99),
        "-",
        "-",
        "-",
        "-");
    System.out.printf(
        Locale.ROOT,
        "%-22s %8d %8s %8.3f %8.3f %8.3f %8.3f %8.0f %8.0f%n",
        t.name(),
        readyMillis,
        warmMillis,
        ms(sidecar, 50),
        ms(sidecar, 99),
        ms(sidecar, 50) - ms(baseline, 50),
        ms(sidecar, 99) - ms(baseline, 99),
        t.process().residentMib(),
        t.process().anonymousMib());
    t.process().close();
    processes.remove(t.process());
  }

  /**
   * Waits until the sidecar's /readyz no longer reports its warm-up running; fails unless it is
   * done.
   */
  private static void waitForWarmup(Target t) throws Exception {
    URI readyz = URI.create(t.metricsUrl().replace("/metrics", "/readyz"));
    waitFor(t.name() + "'s warm-up", () -> !warmupState(readyz).equals("running"), t.process());
    String state = warmupState(readyz);
    if (!state.startsWith("done")) {
      throw new IllegalStateException(t.name() + ": warm-up " + state);
    }
  }

  /** The warm-up's state as /readyz reports it; "running" while /readyz cannot be read. */
  private static String warmupState(URI readyz) {
    try {
      String body =
          PROBE
              .send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.ofString())
              .body();
      return YAML.readTree(body).path("checks").path("warmup").asText();
    } catch (IOException e) {
      return "running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "running";
    }
  }

  /** A table cell: {@code value} in {@code format}, or "-" where the target has no such reading. */
  static String cell(boolean known, String format, double value) {
    return known ? String.format(Locale.ROOT, format, value) : "-";
  }

  static double ms(Histogram h, double percentile) {
    return h.getValueAtPercentile(percentile) / 1000.0;
  }

  private static String initialize(String url) throws Exception {
    HttpResponse<String> r =
        PROBE.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"toolgate-bench\",\"version\":\"1\"}}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return r.headers()
        .firstValue("Mcp-Session-Id")
        .orElseThrow(
            () ->
                new IllegalStateException(
                    url + " gave no session: " + r.statusCode() + " " + r.body()));
  }

  private void startHazelcast(int port) throws Exception {
    String jar =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(p -> p.matches(".*hazelcast-5[^/]*\\.jar"))
            .findFirst()
            .orElseThrow(
                () -> new IllegalStateException("the Hazelcast jar is not on the class path"));
    keep(LocalHazelcast.start(work, logs, jar, port));
  }

  private Target startNginx(int backendPort) throws Exception {
    Path nginx = Path.of("/usr/sbin/nginx");
    if (!Files.isExecutable(nginx)) {
      throw new IllegalStateException(
          "Debian's nginx is needed as the baseline: apt-get install nginx-light"
              + " (bench/run installs it when it can)");
    }
    int port = LoopbackPorts.next();
    Path dir = Files.createDirectories(work.resolve("nginx"));
    Files.writeString(
        dir.resolve("nginx.conf"),
        """
        worker_processes auto;
        daemon off;
        pid %1$s/nginx.pid;
        error_log %1$s/error.log warn;
        events { worker_connections 4096; }
        http {
          access_log off;
          client_body_temp_path %1$s/body;
          proxy_temp_path %1$s/proxy;
          fastcgi_temp_path %1$s/fastcgi;
          uwsgi_temp_path %1$s/uwsgi;
          scgi_temp_path %1$s/scgi;
          upstream backend { server 127.0.0.1:%2$d; keepalive 256; }
          server {
            listen 127.0.0.1:%3$d;
            location / {
              proxy_pass http://backend;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
              proxy_buffering off;
            }
          }
        }
        """
            .formatted(dir, backendPort, port));
    LocalProcess process =
        keep(
            LocalProcess.start(
                "nginx",
                logs,
                List.of(
                    nginx.toString(),
                    "-p",
                    dir.toString(),
                    "-c",
                    dir.resolve("nginx.conf").toString()),
                Map.of()));
    String url = "http://127.0.0.1:" + port;
    waitFor("nginx", () -> ok(url + "/ledger"), process);
    return new Target(NGINX, url + "/mcp", process);
  }

  /** {@link VertxRelay} on this checkout's sidecar JVM flags (its image's jvm.options). */
  private Target startRelay(String backendUrl, SidecarBuild build) throws Exception {
    int port = LoopbackPorts.next();
    List<String> command = new ArrayList<>(List.of("@" + build.jvmOptions()));
    command.addAll(extraFlags("vertx relay"));
    if (profiler != null) {
      command.addAll(profiler.flags("vertx relay"));
      profiled.add("vertx relay");
    }
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            VertxRelay.class.getName(),
            "--port",
            Integer.toString(port),
            "--upstream",
            backendUrl));
    LocalProcess process = keep(LocalProcess.java("vertx-relay", logs, command));
    String url = "http://127.0.0.1:" + port;
    waitFor("the Vert.x relay", () -> ok(url + "/ledger"), process);
    return new Target("vertx relay", url + "/mcp", process);
  }

  /**
   * A target's configuration goes next to its logs, named after it, and is replaced by the next
   * run's.
   */
  private Path configFile(String target) {
    return work.resolve(fileName(target) + ".yaml");
  }

  private Path passThrough(String target, String backendUrl) throws Exception {
    Path config = configFile(target);
    Files.writeString(
        config,
        PassThroughConfig.yaml(LoopbackPorts.next(), LoopbackPorts.next(), backendUrl + "/mcp"));
    return config;
  }

  /**
   * Seed 000's rendered policy (e2e/demo/sidecar.yaml, what the operator renders) on a Hazelcast
   * client, with the quotas raised so that the load is not refused: they are still checked and
   * counted in Hazelcast on every call. A negative {@code hazelcastPort} keeps the state local.
   * Each build runs the policy its own checkout renders: a compared build may not know a newer
   * field.
   */
  private Path fullPolicy(SidecarBuild build, String target, String backendUrl, int hazelcastPort)
      throws Exception {
    ObjectNode doc =
        (ObjectNode) YAML.readTree(build.root().resolve("e2e/demo/sidecar.yaml").toFile());
    doc.putObject("listen").put("host", "127.0.0.1").put("port", LoopbackPorts.next());
    doc.putObject("admin").put("host", "127.0.0.1").put("port", LoopbackPorts.next());
    if (hazelcastPort < 0) {
      doc.putObject("sharedState").put("mode", "local");
    } else {
      doc.putObject("sharedState")
          .put("mode", "client")
          .put("clusterName", "toolgate")
          .putArray("members")
          .add("127.0.0.1:" + hazelcastPort);
    }
    doc.putObject("approvals").put("publicKeysFile", approvalKey().toString());
    ((ObjectNode) doc.withArray("upstreams").get(0)).put("url", backendUrl + "/mcp");
    ObjectNode quotas = (ObjectNode) doc.get("quotas");
    quotas.putObject("perSession").put("read", 1_000_000_000).put("write", 1_000_000_000);
    quotas.put("ratePerMinute", 1_000_000_000);
    Path config = configFile(target);
    YAML.writeValue(config.toFile(), doc);
    return config;
  }

  /** The full policy in api mode, on the state service this run started. */
  private Path fullPolicyOnApi(
      SidecarBuild build, String target, String backendUrl, LocalState state) throws Exception {
    Path config = fullPolicy(build, target, backendUrl, -1);
    ObjectNode doc = (ObjectNode) YAML.readTree(config.toFile());
    doc.putObject("sharedState")
        .put("mode", "api")
        .putObject("api")
        .put("url", state.url())
        .put("caFile", state.caFile().toString())
        .put("tokenFile", state.tokenFile().toString());
    YAML.writeValue(config.toFile(), doc);
    return config;
  }

  private LocalState state;

  /** The state service, started at its first use (one member, as the Hazelcast target has). */
  private LocalState state() throws Exception {
    if (state == null) {
      state =
          LocalState.start(
              work,
              logs,
              root.resolve("state/target/toolgate-state.jar"),
              LoopbackPorts.next(),
              LoopbackPorts.next());
      keep(state.process());
    }
    return state;
  }

  /**
   * Extra JVM flags for the sidecars and the relay in a profiling run, e.g. {@code
   * -Dtoolgate.bench.sidecarFlags=-XX:StartFlightRecording=filename={name}.jfr}; {@code {name}}
   * becomes the target's name as its log file is named (no space or comma, which would split an
   * agent's options).
   */
  private static List<String> extraFlags(String name) {
    return extraFlags(System.getProperty("toolgate.bench.sidecarFlags", ""), name);
  }

  static List<String> extraFlags(String extra, String name) {
    return new ArrayList<>(
        extra.isBlank()
            ? List.of()
            : Arrays.asList(extra.replace("{name}", fileName(name)).split("\\s+")));
  }

  private Target startSidecar(String name, Path config, SidecarBuild build) throws Exception {
    ObjectNode doc = (ObjectNode) YAML.readTree(config.toFile());
    int mcp = doc.get("listen").get("port").asInt();
    int admin = doc.get("admin").get("port").asInt();
    List<String> flags = extraFlags(name);
    if (profiler != null) {
      flags.addAll(profiler.flags(name));
      profiled.add(name);
    }
    LocalProcess process =
        keep(
            LocalProcess.java(
                fileName(name),
                logs,
                build.command(true, flags, config),
                SidecarImage.environment(build.root())));
    waitFor(name, () -> ok("http://127.0.0.1:" + admin + "/readyz"), process);
    return new Target(
        name,
        "http://127.0.0.1:" + mcp + "/mcp/deployment-api",
        process,
        "http://127.0.0.1:" + admin + "/metrics");
  }

  /**
   * Process start to /readyz 200, embedded shared state (the demo configuration), median of N
   * starts: this checkout without and with its class-data archive, and each compared checkout with
   * its own, the starts taken in turn so that the machine's drift falls on all alike.
   */
  private void timeToReady(int starts, List<SidecarBuild> builds) throws Exception {
    System.out.printf(
        Locale.ROOT,
        "%ntime to ready (process start to /readyz 200, embedded Hazelcast member, %d starts)%n",
        starts);
    record Variant(SidecarBuild build, boolean withArchive, List<Start> starts) {}
    List<Variant> variants = new ArrayList<>();
    variants.add(new Variant(builds.get(0), false, new ArrayList<>()));
    for (SidecarBuild build : builds) {
      variants.add(new Variant(build, true, new ArrayList<>()));
    }
    for (int i = 0; i < starts; i++) {
      for (Variant v : variants) {
        v.starts().add(startUntilReady(v.build(), v.withArchive(), i));
      }
    }
    for (Variant v : variants) {
      long[] millis = v.starts().stream().mapToLong(Start::millis).sorted().toArray();
      if (v.withArchive() && v.build() == builds.get(0)) {
        goals.ready(millis[starts / 2]);
      }
      String label =
          (v.withArchive() ? "with the class-data archive" : "without class-data archive")
              + v.build().suffix();
      System.out.printf(
          Locale.ROOT,
          "  %-40s median %5d ms (min %d, max %d); when ready rss %.0f MiB, anon %.0f MiB%n",
          label,
          millis[starts / 2],
          millis[0],
          millis[starts - 1],
          v.starts().stream().mapToDouble(Start::residentMib).max().orElse(0),
          v.starts().stream().mapToDouble(Start::anonymousMib).max().orElse(0));
    }
  }

  /**
   * The public key seed 000's approvals would be verified with, written for each configuration that
   * names it (the bench calls no tool that needs an approval).
   */
  private Path approvalKey() throws IOException {
    Path key = work.resolve("approval-keys.json");
    Files.writeString(key, SigningKey.generate("bench").publicKeys().toJson());
    return key;
  }

  /** One start until ready: how long it took, and the sidecar's memory then. */
  private record Start(long millis, double residentMib, double anonymousMib) {}

  /** One start of {@code build}'s sidecar until /readyz answers 200. */
  private Start startUntilReady(SidecarBuild build, boolean withArchive, int i) throws Exception {
    ObjectNode doc =
        (ObjectNode) YAML.readTree(build.root().resolve("e2e/demo/sidecar.yaml").toFile());
    int admin = LoopbackPorts.next();
    doc.putObject("listen").put("host", "127.0.0.1").put("port", LoopbackPorts.next());
    doc.putObject("admin").put("host", "127.0.0.1").put("port", admin);
    doc.putObject("sharedState").put("mode", "embedded").put("port", LoopbackPorts.next());
    doc.putObject("approvals").put("publicKeysFile", approvalKey().toString());
    Path config = work.resolve("ready.yaml");
    YAML.writeValue(config.toFile(), doc);
    List<String> command = build.command(withArchive, List.of(), config);
    long start = System.nanoTime();
    try (LocalProcess p =
        LocalProcess.java("ready-" + i, logs, command, SidecarImage.environment(build.root()))) {
      waitFor("the sidecar", () -> ok("http://127.0.0.1:" + admin + "/readyz"), p);
      return new Start((System.nanoTime() - start) / 1_000_000, p.residentMib(), p.anonymousMib());
    }
  }
}
