<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>DagScopeTree</name>
    <message>
        <source>×%1 · %2 each</source>
        <translation>×%1 · je %2</translation>
    </message>
    <message numerus="yes">
        <source>%Ln op(s)</source>
        <translation>
            <numerusform>%Ln Op</numerusform>
            <numerusform>%Ln Ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln transfer(s)</source>
        <translation>
            <numerusform>%Ln Transfer</numerusform>
            <numerusform>%Ln Transfers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Diagnostics</name>
    <message>
        <source>the module declares no replica_count; %1 replicas inferred from its replica groups</source>
        <translation>das Modul gibt keinen replica_count an; %1 Replikate aus seinen Replikagruppen abgeleitet</translation>
    </message>
    <message>
        <source>the module declares no num_partitions; %1 partitions inferred from its replica groups</source>
        <translation>das Modul gibt keine num_partitions an; %1 Partitionen aus seinen Replikagruppen abgeleitet</translation>
    </message>
    <message>
        <source>the module declares no num_partitions; %1 partitions inferred from the global device ids of its collectives</source>
        <translation>das Modul gibt keine num_partitions an; %1 Partitionen aus den globalen Geräte-IDs seiner Kollektive abgeleitet</translation>
    </message>
    <message>
        <source>the module declares no replica_count; %1 replicas inferred from the global device ids of its collectives</source>
        <translation>das Modul gibt keinen replica_count an; %1 Replikate aus den globalen Geräte-IDs seiner Kollektive abgeleitet</translation>
    </message>
    <message>
        <source>%1: its replica groups leave some devices out; each runs it alone</source>
        <translation>%1: seine Replikagruppen lassen einige Geräte aus; jedes davon führt es allein aus</translation>
    </message>
    <message>
        <source>%1: trip count unknown; %2 iterations as given</source>
        <translation>%1: Iterationszahl unbekannt; %2 Iterationen wie angegeben</translation>
    </message>
    <message>
        <source>%1: trip count unknown (no known_trip_count, and its condition depends on values only known at run time); ran once. Give --while-trip-count N</source>
        <translation>%1: Iterationszahl unbekannt (kein known_trip_count, und ihre Bedingung hängt von Werten ab, die erst zur Laufzeit bekannt sind); einmal ausgeführt. Geben Sie --while-trip-count N an</translation>
    </message>
    <message>
        <source>%1: %2 iterations, %3 lowered (--max-trip-count); the estimate covers those only</source>
        <translation>%1: %2 Iterationen, %3 übersetzt (--max-trip-count); die Schätzung umfasst nur diese</translation>
    </message>
    <message>
        <source>%1: conditional lowered with branch %2 of %3 (the most FLOPs)</source>
        <translation>%1: Verzweigung mit Zweig %2 von %3 übersetzt (die meisten FLOPs)</translation>
    </message>
    <message>
        <source>%1: send without _xla_send_recv_source_target_pairs; its peers are unknown</source>
        <translation>%1: send ohne _xla_send_recv_source_target_pairs; seine Gegenstellen sind unbekannt</translation>
    </message>
    <message>
        <source>the module is already partitioned (%1 collectives, no partitioner annotations); the mesh %2 is not used</source>
        <translation>das Modul ist bereits partitioniert (%1 Kollektive, keine Partitionierer-Annotationen); das Mesh %2 wird nicht verwendet</translation>
    </message>
    <message>
        <source>the module is not SPMD-partitioned (%1 sharding annotations and %2 partitioner calls) and could not be partitioned (%3): every rank is estimated running the whole global program</source>
        <translation>das Modul ist nicht SPMD-partitioniert (%1 Sharding-Annotationen und %2 Partitionierer-Aufrufe) und konnte nicht partitioniert werden (%3): jeder Rang wird mit dem ganzen globalen Programm geschätzt</translation>
    </message>
    <message>
        <source>replica_count %1 is not modelled when partitioning; one replica of %2 partitions is estimated</source>
        <translation>replica_count %1 wird beim Partitionieren nicht modelliert; geschätzt wird ein Replikat aus %2 Partitionen</translation>
    </message>
    <message>
        <source>%1 of %2 ranks recorded (%3): the others run as rank %3 does</source>
        <translation>%1 von %2 Rängen aufgezeichnet (%3): die anderen laufen wie Rang %3</translation>
    </message>
    <message>
        <source>%1 of %2 ranks recorded (%3): each other rank m runs as recorded rank number m mod %1 does</source>
        <translation>%1 von %2 Rängen aufgezeichnet (%3): jeder andere Rang m läuft wie der aufgezeichnete Rang Nummer m mod %1</translation>
    </message>
    <message>
        <source>%1 collectives carry no message size (recent PyTorch versions record it with record_param_comms): they count 0 bytes and the network model prices them as latency only</source>
        <translation>%1 Kollektive tragen keine Nachrichtengröße (neuere PyTorch-Versionen zeichnen sie mit record_param_comms auf): sie zählen 0 Bytes, und das Netzwerkmodell bewertet sie nur mit Latenz</translation>
    </message>
    <message>
        <source>%1 collectives name a group smaller than the world without its ranks: taken as all ranks</source>
        <translation>%1 Kollektive nennen eine Gruppe, kleiner als alle Ränge, ohne ihre Ränge: als alle Ränge angenommen</translation>
    </message>
    <message>
        <source>device compute overlaps itself on more than one stream for up to %1 us per rank; the workload runs compute on one stream, so a replay serialises it</source>
        <translation>die Gerätrechnung überlappt sich auf mehr als einem Stream um bis zu %1 µs pro Rang; das Workload rechnet auf einem Stream, daher serialisiert ein Replay sie</translation>
    </message>
    <message>
        <source>the module is already partitioned (it has %1 collectives or no shardings); the mesh %2 is not used</source>
        <translation>das Modul ist bereits partitioniert (es hat %1 Kollektive oder keine Shardings); das Mesh %2 wird nicht verwendet</translation>
    </message>
    <message>
        <source>the module carries %1 sharding annotations but no collectives and declares no mesh; lowered as one device&apos;s view of the whole program (give --mesh to partition it)</source>
        <translation>das Modul trägt %1 Sharding-Annotationen, aber keine Kollektive und deklariert kein Mesh; übersetzt als Sicht eines Geräts auf das ganze Programm (--mesh partitioniert es)</translation>
    </message>
    <message>
        <source>HybridEP&apos;s NVLink domain of %1 ranks is wider than the cluster&apos;s scale-up dimension of %2 ranks: its in-domain hop crosses the network here</source>
        <translation>die NVLink-Domäne von HybridEP mit %1 Rängen ist breiter als die Scale-up-Dimension des Clusters mit %2 Rängen: ihr Sprung innerhalb der Domäne geht hier über das Netzwerk</translation>
    </message>
    <message>
        <source>partitioned by flint for mesh %1 (collectives inserted: %2)</source>
        <translation>von flint für das Mesh %1 partitioniert (eingefügte Kollektive: %2)</translation>
    </message>
    <message>
        <source>%1, %2 rank: measured step %3</source>
        <translation>%1, %2 Rang: gemessener Schritt %3</translation>
    </message>
    <message>
        <source>%1, %2 ranks: measured step %3</source>
        <translation>%1, %2 Ränge: gemessener Schritt %3</translation>
    </message>
    <message>
        <source>%1, %2 rank, %4: measured step %3</source>
        <translation>%1, %2 Rang, %4: gemessener Schritt %3</translation>
    </message>
    <message>
        <source>%1, %2 ranks, %4: measured step %3</source>
        <translation>%1, %2 Ränge, %4: gemessener Schritt %3</translation>
    </message>
    <message>
        <source>%1, %2 rank, no step markers: the whole trace: measured step %3</source>
        <translation>%1, %2 Rang, keine Schrittmarken: die ganze Aufzeichnung: gemessener Schritt %3</translation>
    </message>
    <message>
        <source>%1, %2 ranks, no step markers: the whole trace: measured step %3</source>
        <translation>%1, %2 Ränge, keine Schrittmarken: die ganze Aufzeichnung: gemessener Schritt %3</translation>
    </message>
    <message>
        <source>not SPMD-partitioned by the compiler: partitioned by flint for mesh %1 (collectives inserted: %2)</source>
        <translation>nicht vom Compiler SPMD-partitioniert: von flint für das Mesh %1 partitioniert (eingefügte Kollektive: %2)</translation>
    </message>
    <message>
        <source>a per-device program (shapes and collectives as written: partitioned by the compiler or written per device)</source>
        <translation>ein Programm pro Gerät (Formen und Kollektive wie geschrieben: vom Compiler partitioniert oder pro Gerät geschrieben)</translation>
    </message>
    <message>
        <source> (%1 instructions)</source>
        <translation> (%1 Instruktionen)</translation>
    </message>
    <message>
        <source>computation &apos;%1&apos; calls itself; its recursive use is costed as 0</source>
        <translation>Berechnung &apos;%1&apos; ruft sich selbst auf; ihre rekursive Verwendung wird mit 0 bewertet</translation>
    </message>
    <message>
        <source>opcode &apos;%1&apos; is unknown to the cost model; costed by its bytes only</source>
        <translation>Opcode &apos;%1&apos; ist dem Kostenmodell unbekannt; nur nach seinen Bytes bewertet</translation>
    </message>
    <message>
        <source>convolution dim_labels &apos;%1&apos; not understood; costed by its bytes only</source>
        <translation>Faltungs-dim_labels &apos;%1&apos; nicht verstanden; nur nach ihren Bytes bewertet</translation>
    </message>
    <message>
        <source>computation &apos;%1&apos; fuses itself</source>
        <translation>Berechnung &apos;%1&apos; fusioniert sich selbst</translation>
    </message>
    <message>
        <source>fusion without a fused computation; costed by its bytes only</source>
        <translation>Fusion ohne fusionierte Berechnung; nur nach ihren Bytes bewertet</translation>
    </message>
    <message>
        <source>custom-call target &apos;%1&apos; is unknown; costed by its bytes only</source>
        <translation>custom-call-Ziel &apos;%1&apos; ist unbekannt; nur nach seinen Bytes bewertet</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos; has no dot_dimension_numbers in its backend_config; assumed [batch..., m, k] x [batch..., k, n]</source>
        <translation>custom-call &apos;%1&apos; hat keine dot_dimension_numbers in seiner backend_config; angenommen [batch..., m, k] x [batch..., k, n]</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos; has dim_labels &apos;%2&apos; that are not understood; costed by its bytes only</source>
        <translation>custom-call &apos;%1&apos; hat dim_labels &apos;%2&apos;, die nicht verstanden werden; nur nach seinen Bytes bewertet</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos;: attention shapes not understood; costed by its bytes only</source>
        <translation>custom-call &apos;%1&apos;: Attention-Formen nicht verstanden; nur nach seinen Bytes bewertet</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos;: attention sizes not found in backend_config or operands; costed by its bytes only</source>
        <translation>custom-call &apos;%1&apos;: Attention-Größen weder in backend_config noch in den Operanden gefunden; nur nach seinen Bytes bewertet</translation>
    </message>
    <message>
        <source>the module&apos;s mhlo.sharding tilings do not nest into one device mesh; they are ignored</source>
        <translation>die mhlo.sharding-Kachelungen des Moduls lassen sich nicht in ein Geräte-Mesh schachteln; sie werden ignoriert</translation>
    </message>
    <message>
        <source>mhlo.sharding &quot;%1&quot; (line %2) cannot be expressed on mesh %3; the value is taken as replicated</source>
        <translation>mhlo.sharding &quot;%1&quot; (Zeile %2) lässt sich nicht auf dem Mesh %3 ausdrücken; der Wert gilt als repliziert</translation>
    </message>
    <message>
        <source>mhlo.sharding &quot;%1&quot; cannot be expressed on mesh %3; the value is taken as replicated</source>
        <translation>mhlo.sharding &quot;%1&quot; lässt sich nicht auf dem Mesh %3 ausdrücken; der Wert gilt als repliziert</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not supported by the MLIR frontend; costed by its bytes only (first at line %2)</source>
        <translation>&apos;%1&apos; wird vom MLIR-Frontend nicht unterstützt; nur nach seinen Bytes bewertet (zuerst in Zeile %2)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not supported by the MLIR frontend; costed by its bytes only</source>
        <translation>&apos;%1&apos; wird vom MLIR-Frontend nicht unterstützt; nur nach seinen Bytes bewertet</translation>
    </message>
    <message>
        <source>sharding %1 is not understood; the value is taken as unannotated</source>
        <translation>Sharding %1 wird nicht verstanden; der Wert gilt als nicht annotiert</translation>
    </message>
    <message>
        <source>a partially manual sharding (last_tile_dims with manual) is taken as manual on every axis</source>
        <translation>ein teilweise manuelles Sharding (last_tile_dims mit manual) gilt auf jeder Achse als manuell</translation>
    </message>
    <message>
        <source>a maximal sharding (one device computes the value) is taken as replicated</source>
        <translation>ein maximales Sharding (ein Gerät berechnet den Wert) gilt als repliziert</translation>
    </message>
    <message>
        <source>a GSPMD tiling without a Shardy sharding on a mesh with device_ids is taken as unannotated</source>
        <translation>eine GSPMD-Kachelung ohne Shardy-Sharding auf einem Mesh mit device_ids gilt als nicht annotiert</translation>
    </message>
    <message>
        <source>sharding %1 cannot be expressed on mesh %2; the value is taken as unannotated</source>
        <translation>Sharding %1 lässt sich nicht auf dem Mesh %2 ausdrücken; der Wert gilt als nicht annotiert</translation>
    </message>
    <message>
        <source>%1 cannot be named on the mesh; that dimension is taken as replicated</source>
        <translation>%1 lässt sich auf dem Mesh nicht benennen; diese Dimension gilt als repliziert</translation>
    </message>
    <message>
        <source>a tuple sharding of %1 elements for %2 values is ignored</source>
        <translation>ein Tupel-Sharding von %1 Elementen für %2 Werte wird ignoriert</translation>
    </message>
    <message>
        <source>a resharded value: dimension %2 of size %3 is padded to %4 to split into %5 shards on mesh %6</source>
        <translation>ein umverteilter Wert: Dimension %2 der Größe %3 wird auf %4 aufgefüllt, um in %5 Shards auf dem Mesh %6 geteilt zu werden</translation>
    </message>
    <message>
        <source>%1: dimension %2 of size %3 is padded to %4 to split into %5 shards on mesh %6</source>
        <translation>%1: Dimension %2 der Größe %3 wird auf %4 aufgefüllt, um in %5 Shards auf dem Mesh %6 geteilt zu werden</translation>
    </message>
    <message>
        <source>%1: mesh axis &apos;%2&apos; is not in mesh %3; ignored</source>
        <translation>%1: Mesh-Achse &apos;%2&apos; gehört nicht zum Mesh %3; ignoriert</translation>
    </message>
    <message>
        <source>the manual region&apos;s local shape %1 is not the shard %2 of the global value on mesh %3; the region runs as written</source>
        <translation>die lokale Form %1 des manuellen Bereichs ist nicht der Shard %2 des globalen Werts auf dem Mesh %3; der Bereich läuft wie geschrieben</translation>
    </message>
    <message>
        <source>the manual region returns %1 per device, not the shard %2 of %3 on mesh %4</source>
        <translation>der manuelle Bereich gibt %1 pro Gerät zurück, nicht den Shard %2 von %3 auf dem Mesh %4</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not partitioned (its operands are gathered and it runs as one opaque op)</source>
        <translation>&apos;%1&apos; wird nicht partitioniert (seine Operanden werden gesammelt, und es läuft als eine undurchsichtige Op)</translation>
    </message>
    <message>
        <source>CustomSPMDPartitioning: the custom partitioner is not run; the call takes its operands&apos; shards as laid out and its result as annotated</source>
        <translation>CustomSPMDPartitioning: der eigene Partitionierer wird nicht ausgeführt; der Aufruf nimmt die Shards seiner Operanden, wie sie liegen, und sein Ergebnis wie annotiert</translation>
    </message>
    <message>
        <source>CustomSPMDPartitioning: the custom partitioner is not run; the call takes its operands&apos; shards as laid out and its result laid out as its first operand</source>
        <translation>CustomSPMDPartitioning: der eigene Partitionierer wird nicht ausgeführt; der Aufruf nimmt die Shards seiner Operanden, wie sie liegen, und sein Ergebnis verteilt wie sein erster Operand</translation>
    </message>
    <message>
        <source>reshape %1 -&gt; %2: dimension %3 sharded over %4 does not map onto a result dimension that splits as evenly; it is all-gathered first</source>
        <translation>reshape %1 -&gt; %2: die über %4 verteilte Dimension %3 bildet nicht auf eine Ergebnisdimension ab, die sich ebenso gleichmäßig teilt; sie wird zuerst per all-gather gesammelt</translation>
    </message>
    <message>
        <source>%1 byte-identical to an earlier rank&apos;s</source>
        <translation>%1 byteweise gleich der eines früheren Rangs</translation>
    </message>
    <message>
        <source>%1 equal to an earlier rank&apos;s but for process-group names</source>
        <translation>%1 gleich der eines früheren Rangs bis auf Prozessgruppennamen</translation>
    </message>
    <message>
        <source>%1 the same ops at other recorded times</source>
        <translation>%1 mit denselben Ops zu anderen aufgezeichneten Zeiten</translation>
    </message>
    <message>
        <source>%1 rank files hold %2 distinct program (</source>
        <translation>%1 Rangdateien enthalten %2 verschiedenes Programm (</translation>
    </message>
    <message>
        <source>%1 rank files hold %2 distinct programs (</source>
        <translation>%1 Rangdateien enthalten %2 verschiedene Programme (</translation>
    </message>
    <message>
        <source>): each is held once, and ranks shown to behave alike are simulated once</source>
        <translation>): jedes wird einmal gehalten, und Ränge, die sich nachweislich gleich verhalten, werden einmal simuliert</translation>
    </message>
    <message>
        <source>; a rank with recorded times of its own keeps them and is simulated with them</source>
        <translation>; ein Rang mit eigenen aufgezeichneten Zeiten behält sie und wird mit ihnen simuliert</translation>
    </message>
    <message>
        <source>generated as StableHLO blocks, partitioned for the stage mesh %1 and composed into %2 pipeline stage program (docs/models.md)</source>
        <translation>als StableHLO-Blöcke erzeugt, für das Stufen-Mesh %1 partitioniert und zu %2 Pipeline-Stufenprogramm zusammengesetzt (docs/models.md)</translation>
    </message>
    <message>
        <source>generated as StableHLO blocks, partitioned for the stage mesh %1 and composed into %2 pipeline stage programs (docs/models.md)</source>
        <translation>als StableHLO-Blöcke erzeugt, für das Stufen-Mesh %1 partitioniert und zu %2 Pipeline-Stufenprogrammen zusammengesetzt (docs/models.md)</translation>
    </message>
    <message>
        <source>halving-doubling needs a power-of-two group; ring used</source>
        <translation>Halving-Doubling braucht eine Gruppe mit Zweierpotenz-Größe; Ring verwendet</translation>
    </message>
    <message>
        <source>ASTRA-sim runs a whole-chunk tree all-reduce in every phase on a tree dimension</source>
        <translation>ASTRA-sim führt auf einer Baum-Dimension in jeder Phase ein Baum-All-Reduce ganzer Chunks aus</translation>
    </message>
    <message>
        <source>double binary tree is an all-reduce algorithm; ring used</source>
        <translation>Double Binary Tree ist ein All-Reduce-Algorithmus; Ring verwendet</translation>
    </message>
    <message>
        <source>group is not a sub-grid of the topology: one logical ring over its ranks</source>
        <translation>die Gruppe ist kein Teilgitter der Topologie: ein logischer Ring über ihre Ränge</translation>
    </message>
    <message>
        <source>plus, where transfers of this rank overlap it on a link and together ask for more than the link carries, the excess of that demand over its interval (links shared by overlapping transfers; the slowest participant&apos;s)</source>
        <translation>dazu, wo Übertragungen dieses Rangs sie auf einem Link überlappen und zusammen mehr verlangen, als der Link trägt, der Überschuss dieser Nachfrage über ihr Intervall (von überlappenden Übertragungen geteilte Links; der des langsamsten Teilnehmers)</translation>
    </message>
    <message>
        <source>reduce-scatter %1, then its mirror all-gather, %2</source>
        <translation>Reduce-Scatter %1, dann das gespiegelte All-Gather, %2</translation>
    </message>
    <message>
        <source>see docs/estimator.md, rooted and other collectives</source>
        <translation>siehe docs/estimator.md, Kollektive mit Wurzel und andere</translation>
    </message>
    <message>
        <source>%1 of %2 bytes per rank over %3 members, %4 cost model</source>
        <translation>%1 von %2 Bytes pro Rang über %3 Mitglieder, Kostenmodell %4</translation>
    </message>
    <message>
        <source>%1 chunk(s) of %2 bytes, pipelined through %3 phase(s), staged per topology dimension</source>
        <translation>%1 Chunk(s) zu %2 Bytes, durch %3 Phase(n) gepipelinet, gestuft je Topologiedimension</translation>
    </message>
    <message>
        <source>%1 chunk(s) of %2 bytes, pipelined through %3 phase(s)</source>
        <translation>%1 Chunk(s) zu %2 Bytes, durch %3 Phase(n) gepipelinet</translation>
    </message>
    <message>
        <source>phase %1: %2 %3 on a flat logical ring, n = %4, c = %5 bytes: t = </source>
        <translation>Phase %1: %2 %3 auf einem flachen logischen Ring, n = %4, c = %5 Bytes: t = </translation>
    </message>
    <message>
        <source> = %1 per chunk</source>
        <translation> = %1 pro Chunk</translation>
    </message>
    <message>
        <source>NCCL&apos;s %1 protocol, the fastest of LL, LL128 and Simple: its ring latency %2 once (a base and a latency per ring step), the phases above at its share of the bandwidth and without per-hop latency</source>
        <translation>NCCLs Protokoll %1, das schnellste von LL, LL128 und Simple: seine Ring-Latenz %2 einmal (eine Grundlatenz und eine Latenz je Ringschritt), die Phasen oben mit seinem Anteil an der Bandbreite und ohne Latenz je Hop</translation>
    </message>
    <message>
        <source>%1; %2; ED endpoint delay (docs/estimator.md)</source>
        <translation>%1; %2; ED Endpunktverzögerung (docs/estimator.md)</translation>
    </message>
    <message>
        <source>duration = %1</source>
        <translation>Dauer = %1</translation>
    </message>
    <message>
        <source>send of %1 bytes between ranks %2 and %3</source>
        <translation>Senden von %1 Bytes zwischen den Rängen %2 und %3</translation>
    </message>
    <message>
        <source>recv of %1 bytes between ranks %2 and %3</source>
        <translation>Empfangen von %1 Bytes zwischen den Rängen %2 und %3</translation>
    </message>
    <message>
        <source>t = %1 = %2</source>
        <translation>t = %1 = %2</translation>
    </message>
    <message>
        <source>recorded duration: %1</source>
        <translation>aufgezeichnete Dauer: %1</translation>
    </message>
    <message>
        <source>roofline: %1</source>
        <translation>Roofline: %1</translation>
    </message>
    <message>
        <source>fused attention, backward pass: eff_flop is the measured throughput of %1 on %2</source>
        <translation>fusionierte Attention, Rückwärtslauf: eff_flop ist der gemessene Durchsatz von %1 auf %2</translation>
    </message>
    <message>
        <source>fused attention, forward pass: eff_flop is the measured throughput of %1 on %2</source>
        <translation>fusionierte Attention, Vorwärtslauf: eff_flop ist der gemessene Durchsatz von %1 auf %2</translation>
    </message>
    <message>
        <source>GEMM of M %1 x N %2 x K %3: eff_flop is %4&apos;s measured throughput at that shape (%5 TFLOP/s)</source>
        <translation>GEMM mit M %1 x N %2 x K %3: eff_flop ist der gemessene Durchsatz von %4 bei dieser Form (%5 TFLOP/s)</translation>
    </message>
    <message>
        <source>eff_flop includes x %1: the throughput %2 sustains power-saturated, against the burst figure of short benchmarks at the boost clock</source>
        <translation>eff_flop enthält x %1: den Durchsatz, den %2 an der Leistungsgrenze hält, gegenüber dem Spitzenwert kurzer Benchmarks beim Boost-Takt</translation>
    </message>
    <message>
        <source>no FLOPs and no memory traffic: the op takes no time</source>
        <translation>keine FLOPs und kein Speicherverkehr: die Operation braucht keine Zeit</translation>
    </message>
    <message>
        <source>= max(%1, %2) + %3 = %4 (compute-bound)</source>
        <translation>= max(%1, %2) + %3 = %4 (rechengebunden)</translation>
    </message>
    <message>
        <source>= max(%1, %2) + %3 = %4 (memory-bound)</source>
        <translation>= max(%1, %2) + %3 = %4 (speichergebunden)</translation>
    </message>
    <message>
        <source>plus %1% of the time communication of this rank runs beside it (SMs and memory bandwidth shared with the communication kernels)</source>
        <translation>dazu %1 % der Zeit, in der Kommunikation dieses Rangs neben ihr läuft (SMs und Speicherbandbreite mit den Kommunikationskernels geteilt)</translation>
    </message>
    <message>
        <source>the trace names no process group for its collectives, and the recorded ranks do not issue them in the same order: paired by end time instead. %1 collectives end together on every recorded rank; %2 (counted on each rank) have no partner on another recorded rank and run on a group of their rank and the unrecorded ranks that copy it</source>
        <translation>die Aufzeichnung nennt keine Prozessgruppe für ihre kollektiven Operationen, und die aufgezeichneten Ränge rufen sie nicht in derselben Reihenfolge auf: stattdessen nach Endzeit gepaart. %1 kollektive Operationen enden auf jedem aufgezeichneten Rang gemeinsam; %2 (je Rang gezählt) haben keinen Partner auf einem anderen aufgezeichneten Rang und laufen auf einer Gruppe aus ihrem Rang und den nicht aufgezeichneten Rängen, die ihn kopieren</translation>
    </message>
    <message>
        <source>the run was measured on TPUs, the estimate is for %1 on %2: choose a TPU cluster (%3, or a network YAML with %4)</source>
        <translation>der Lauf wurde auf TPUs gemessen, die Schätzung gilt für %1 auf %2: wählen Sie einen TPU-Cluster (%3 oder eine Netzwerk-YAML mit %4)</translation>
    </message>
    <message>
        <source>the run was measured on %1, the estimate prices modelled work on %2 (%3): %4 (or a cluster built around it) compares like with like</source>
        <translation>der Lauf wurde auf %1 gemessen, die Schätzung bewertet modellierte Arbeit auf %2 (%3): %4 (oder ein Cluster darum herum) vergleicht Gleiches mit Gleichem</translation>
    </message>
    <message>
        <source>phase %1: %2 %3 on dimension %4 (%5, %6 GB/s, %7 ns), n = %8, c = %9 bytes: t = </source>
        <translation>Phase %1: %2 %3 auf Dimension %4 (%5, %6 GB/s, %7 ns), n = %8, c = %9 Bytes: t = </translation>
    </message>
    <message>
        <source>%1; %2: the reduction&apos;s excess over its transfer, as NCCL&apos;s kernels reduce while they stream; ED endpoint delay (docs/estimator.md)</source>
        <translation>%1; %2: der Überschuss der Reduktion über ihre Übertragung, da NCCLs Kernels während des Streamens reduzieren; ED Endpunktverzögerung (docs/estimator.md)</translation>
    </message>
</context>
<context>
    <name>NetworkNames</name>
    <message>
        <source>ring</source>
        <translation>Ring</translation>
    </message>
    <message>
        <source>switch</source>
        <translation>Switch</translation>
    </message>
    <message>
        <source>fully connected</source>
        <translation>vollvermascht</translation>
    </message>
    <message>
        <source>direct</source>
        <translation>direkt</translation>
    </message>
    <message>
        <source>halving-doubling</source>
        <translation>Halbieren-Verdoppeln</translation>
    </message>
    <message>
        <source>double binary tree</source>
        <translation>doppelter Binärbaum</translation>
    </message>
</context>
<context>
    <name>flint::app::DetailsPanel</name>
    <message numerus="yes">
        <source>Its transfers are outlined in the Communication tab (%n cell(s)).</source>
        <translation>
            <numerusform>Ihre Übertragungen sind im Reiter „Kommunikation“ markiert (%n Zelle).</numerusform>
            <numerusform>Ihre Übertragungen sind im Reiter „Kommunikation“ markiert (%n Zellen).</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) on rank %3&lt;br&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2) auf Rang %3&lt;br&gt;</translation>
    </message>
    <message>
        <source>scope &lt;i&gt;%1&lt;/i&gt;&lt;br&gt;</source>
        <translation>Bereich &lt;i&gt;%1&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>result %1[%2]&lt;br&gt;</source>
        <translation>Ergebnis %1[%2]&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 FLOP, %2 read, %3 written&lt;br&gt;</source>
        <translation>%1 FLOP, %2 gelesen, %3 geschrieben&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 per rank, group of %2: %3&lt;br&gt;</source>
        <translation>%1 pro Rang, Gruppe aus %2: %3&lt;br&gt;</translation>
    </message>
    <message>
        <source>runs %1 → %2 (%3)%4&lt;br&gt;</source>
        <translation>läuft %1 → %2 (%3)%4&lt;br&gt;</translation>
    </message>
    <message>
        <source>, after waiting %1 for its peers</source>
        <translation>, nachdem sie %1 auf ihre Partner gewartet hat</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Estimated time %1&lt;/b&gt;, how:</source>
        <translation>&lt;br&gt;&lt;b&gt;Geschätzte Zeit %1&lt;/b&gt;, so berechnet:</translation>
    </message>
    <message>
        <source>&lt;br&gt;No estimate for this op: %1</source>
        <translation>&lt;br&gt;Keine Schätzung für diese Op: %1</translation>
    </message>
    <message>
        <source>&lt;i&gt;View &gt; Animate selected collective (Ctrl+Shift+A) plays it step by step.&lt;/i&gt;&lt;br&gt;</source>
        <translation>&lt;i&gt;Ansicht &gt; Ausgewählte Kollektivoperation animieren (Strg+Umschalt+A) spielt sie Schritt für Schritt ab.&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>The previous estimate: the current configuration is being estimated</source>
        <translation>Die vorige Schätzung: die aktuelle Konfiguration wird gerade geschätzt</translation>
    </message>
    <message>
        <source>In this estimate it took %1: %2 more than alone, from what ran beside it (the last line above).&lt;br&gt;</source>
        <translation>In dieser Schätzung dauerte sie %1: %2 länger als allein, durch das, was neben ihr lief (die letzte Zeile oben).&lt;br&gt;</translation>
    </message>
</context>
<context>
    <name>flint::app::ExampleGallery</name>
    <message>
        <source>%1 (licence: %2)</source>
        <translation>%1 (Lizenz: %2)</translation>
    </message>
    <message>
        <source>Chakra execution trace</source>
        <translation>Chakra-Ausführungstrace</translation>
    </message>
    <message>
        <source>XLA HLO module</source>
        <translation>XLA-HLO-Modul</translation>
    </message>
    <message>
        <source>Example gallery</source>
        <translation>Beispielgalerie</translation>
    </message>
    <message>
        <source>Bundled workloads, as real compilers and tools wrote them:</source>
        <translation>Mitgelieferte Workloads, so wie echte Compiler und Werkzeuge sie geschrieben haben:</translation>
    </message>
    <message>
        <source>No bundled examples were found next to this program.</source>
        <translation>Neben diesem Programm wurden keine mitgelieferten Beispiele gefunden.</translation>
    </message>
</context>
<context>
    <name>flint::app::ExportActions</name>
    <message>
        <source>Export a Perfetto trace</source>
        <translation>Perfetto-Trace exportieren</translation>
    </message>
    <message>
        <source>Chrome/Perfetto trace (*.json)</source>
        <translation>Chrome/Perfetto-Trace (*.json)</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>%1 wird geschrieben…</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 geschrieben</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export Chakra traces: choose a folder and a file prefix</source>
        <translation>Chakra-Traces exportieren: Ordner und Dateipräfix wählen</translation>
    </message>
    <message>
        <source>Chakra trace prefix (PREFIX.RANK.et and PREFIX.json)</source>
        <translation>Chakra-Trace-Präfix (PREFIX.RANK.et und PREFIX.json)</translation>
    </message>
    <message>
        <source>Export the per-rank breakdown</source>
        <translation>Aufschlüsselung pro Rang exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export the current view</source>
        <translation>Aktuelle Ansicht exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Zeichnung (*.svg)</translation>
    </message>
    <message>
        <source>Export the configurations tried</source>
        <translation>Ausprobierte Konfigurationen exportieren</translation>
    </message>
</context>
<context>
    <name>flint::app::History</name>
    <message>
        <source>%1 (edited)</source>
        <translation>%1 (bearbeitet)</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>Basislinie</translation>
    </message>
    <message>
        <source>%1
on %2</source>
        <translation>%1
auf %2</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>Schrittzeit</translation>
    </message>
    <message>
        <source>Tokens/s/GPU</source>
        <translation>Tokens/s/GPU</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>vs baseline</source>
        <translation>ggü. Basislinie</translation>
    </message>
    <message>
        <source>MFU %1 %</source>
        <translation>MFU %1 %</translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>ohne ZeRO</translation>
    </message>
    <message>
        <source>global batch %1</source>
        <translation>globaler Batch %1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 GB/s</source>
        <translation>%1 · %2 · %3 GB/s</translation>
    </message>
    <message>
        <source>The baseline runs on %1 GPUs, this one on %2: the step time compares the whole job.</source>
        <translation>Die Basislinie läuft auf %1 GPUs, diese Konfiguration auf %2: Die Schrittzeit vergleicht den ganzen Job.</translation>
    </message>
    <message>
        <source>Per GPU, tokens/s change by %1 %.</source>
        <translation>Pro GPU ändern sich die Tokens/s um %1 %.</translation>
    </message>
</context>
<context>
    <name>flint::app::HistoryPanel</name>
    <message>
        <source>Re-open</source>
        <translation>Wieder öffnen</translation>
    </message>
    <message>
        <source>Show this configuration again (Ctrl+Z goes back)</source>
        <translation>Diese Konfiguration wieder zeigen (Strg+Z geht zurück)</translation>
    </message>
    <message>
        <source>Pin as baseline</source>
        <translation>Als Basislinie</translation>
    </message>
    <message>
        <source>Compare every estimate with this one</source>
        <translation>Jede Schätzung mit dieser vergleichen</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Unpin baseline</source>
        <translation>Basislinie lösen</translation>
    </message>
    <message>
        <source>This row keeps its figures, not its whole estimate: it is estimated again (the configuration shown stays), then pinned</source>
        <translation>Diese Zeile behält nur ihre Kennzahlen, nicht die ganze Schätzung: Sie wird erneut geschätzt (die angezeigte Konfiguration bleibt) und dann als Basislinie gesetzt</translation>
    </message>
</context>
<context>
    <name>flint::app::MainWindow</name>
    <message>
        <source>Flint Explorer</source>
        <translation>Flint Explorer</translation>
    </message>
    <message>
        <source>rank </source>
        <translation>Rang </translation>
    </message>
    <message>
        <source>The rank whose graph is shown</source>
        <translation>Der Rang, dessen Graph angezeigt wird</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitachse</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>Kommunikation</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>Was wäre wenn</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Öffnen…</translation>
    </message>
    <message>
        <source>Open a workload</source>
        <translation>Workload öffnen</translation>
    </message>
    <message>
        <source>Open trace &amp;folder…</source>
        <translation>Trace-Or&amp;dner öffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Example &amp;gallery…</source>
        <translation>Beispiel&amp;galerie…</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>Bei&amp;spiele</translation>
    </message>
    <message>
        <source>Export &amp;Perfetto trace…</source>
        <translation>&amp;Perfetto-Trace exportieren…</translation>
    </message>
    <message>
        <source>Export &amp;Chakra traces…</source>
        <translation>&amp;Chakra-Traces exportieren…</translation>
    </message>
    <message>
        <source>Export view &amp;image…</source>
        <translation>Ansicht als B&amp;ild exportieren…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>%1 — Flint Explorer</source>
        <translation>%1 — Flint Explorer</translation>
    </message>
    <message>
        <source>No op sends from these ranks to those</source>
        <translation>Keine Op sendet von diesen Rängen zu jenen</translation>
    </message>
    <message>
        <source>%1 moves %2 from rank %3 to ranks %4-%5 over the step</source>
        <translation>%1 überträgt im Schritt %2 von Rang %3 zu den Rängen %4–%5</translation>
    </message>
    <message>
        <source>The previous workload and estimate are still shown.</source>
        <translation>Die vorherige Workload und Schätzung werden weiterhin angezeigt.</translation>
    </message>
    <message>
        <source>Export breakdown as CS&amp;V…</source>
        <translation>Aufschlüsselung als CS&amp;V exportieren…</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>Ops</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>Parallelisierung</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>Modelldatei öffnen</translation>
    </message>
    <message>
        <source>Model files (*.txt *.model);;All files (*)</source>
        <translation>Modelldateien (*.txt *.model);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read the model %1</source>
        <translation>Das Modell %1 kann nicht gelesen werden</translation>
    </message>
    <message numerus="yes">
        <source>%n errors since this box opened; the latest is shown. The previous workload and estimate are still shown.</source>
        <translation>
            <numerusform>%n Fehler, seit dieses Fenster geöffnet wurde; der letzte wird angezeigt. Die vorherige Workload und Schätzung werden weiterhin angezeigt.</numerusform>
            <numerusform>%n Fehler, seit dieses Fenster geöffnet wurde; der letzte wird angezeigt. Die vorherige Workload und Schätzung werden weiterhin angezeigt.</numerusform>
        </translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Pin current estimate as baseline</source>
        <translation>Aktuelle Schätzung als &amp;Basislinie festhalten</translation>
    </message>
    <message>
        <source>&amp;Clear baseline</source>
        <translation>Basislinie &amp;entfernen</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Letzte Änderung</translation>
    </message>
    <message>
        <source>Against baseline #%1</source>
        <translation>Gegenüber Basislinie #%1</translation>
    </message>
    <message>
        <source>&amp;Fit to window</source>
        <translation>&amp;In Fenster einpassen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Flint Explorer</source>
        <translation>Ü&amp;ber Flint Explorer</translation>
    </message>
    <message>
        <source>About Flint Explorer</source>
        <translation>Über Flint Explorer</translation>
    </message>
    <message>
        <source>&lt;b&gt;Flint Explorer %1&lt;/b&gt;&lt;p&gt;Explore how a training or inference step of a large model behaves on a cluster you do not have: workload graphs from XLA HLO, StableHLO, Shardy and MLIR or built-in models, per-rank timelines estimated on a modelled cluster, Chakra traces for ASTRA-sim.&lt;/p&gt;&lt;p&gt;MIT licence. Qt %2.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Flint Explorer %1&lt;/b&gt;&lt;p&gt;Untersuchen, wie sich ein Trainings- oder Inferenzschritt eines großen Modells auf einem Cluster verhält, den man nicht hat: Workload-Graphen aus XLA HLO, StableHLO, Shardy und MLIR oder eingebauten Modellen, auf einem modellierten Cluster geschätzte Zeitachsen pro Rang, Chakra-Traces für ASTRA-sim.&lt;/p&gt;&lt;p&gt;MIT-Lizenz. Qt %2.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Undo the last change</source>
        <translation>Letzte Änderung rückgängig machen</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Pin the current estimate as the baseline</source>
        <translation>Aktuelle Schätzung als Basislinie festhalten</translation>
    </message>
    <message>
        <source>Fit the graph, timeline or matrix to the window</source>
        <translation>Graph, Zeitachse oder Matrix ins Fenster einpassen</translation>
    </message>
    <message>
        <source>Find an op in the graph</source>
        <translation>Op im Graphen suchen</translation>
    </message>
    <message>
        <source>Enter, F3</source>
        <translation>Eingabe, F3</translation>
    </message>
    <message>
        <source>Next match of the search</source>
        <translation>Nächster Treffer der Suche</translation>
    </message>
    <message>
        <source>Wheel, drag</source>
        <translation>Mausrad, Ziehen</translation>
    </message>
    <message>
        <source>Zoom and pan the graph, the timeline and the matrix</source>
        <translation>Graph, Zeitachse und Matrix zoomen und verschieben</translation>
    </message>
    <message>
        <source>Double-click</source>
        <translation>Doppelklick</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Workloads and profiles (*.hlo *.hlo.gz *.txt *.txt.gz *.mlir *.et *.et.gz *.json *.json.gz);;All files (*)</source>
        <translation>Workloads und Profile (*.hlo *.hlo.gz *.txt *.txt.gz *.mlir *.et *.et.gz *.json *.json.gz);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open a folder of Chakra rank files or profiler traces</source>
        <translation>Ordner mit Chakra-Rank-Dateien oder Profiler-Traces öffnen</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>Open a measured run</source>
        <translation>Gemessenen Lauf öffnen</translation>
    </message>
    <message>
        <source>Compare with a &amp;measured run…</source>
        <translation>Mit &amp;Messlauf vergleichen…</translation>
    </message>
    <message>
        <source>Open a folder of profiler traces, one per rank</source>
        <translation>Ordner mit Profiler-Traces öffnen (einer je Rank)</translation>
    </message>
    <message>
        <source>Compare with a measured run fol&amp;der…</source>
        <translation>Mit Messlauf-Ordn&amp;er vergleichen…</translation>
    </message>
    <message>
        <source>Measured run %1, replayed as measured</source>
        <translation>Gemessener Lauf %1, wiedergegeben wie gemessen</translation>
    </message>
    <message>
        <source>Baseline #%1</source>
        <translation>Basislinie #%1</translation>
    </message>
    <message>
        <source>Measured runs: profiler traces, Chakra traces with recorded times (*.json *.json.gz *.et);;All files (*)</source>
        <translation>Gemessene Läufe: Profiler-Traces, Chakra-Traces mit aufgezeichneten Zeiten (*.json *.json.gz *.et);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 × %2 GB/s</source>
        <translation>%1 × %2 GB/s</translation>
    </message>
    <message>
        <source>Open a group in the graph; zoom onto a cell&apos;s group in the matrix; re-open a row of the history or the sweep</source>
        <translation>Eine Gruppe im Graphen öffnen; in der Matrix auf die Gruppe einer Zelle zoomen; eine Zeile des Verlaufs oder des Sweeps erneut öffnen</translation>
    </message>
    <message numerus="yes">
        <source>Estimated %Ln rank(s): step time %1</source>
        <translation>
            <numerusform>%Ln Rang geschätzt: Schrittzeit %1</numerusform>
            <numerusform>%Ln Ränge geschätzt: Schrittzeit %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Animate selected collective…</source>
        <translation>Ausgewählte Kollektivoperation &amp;animieren…</translation>
    </message>
    <message>
        <source>Play the selected collective step by step</source>
        <translation>Die ausgewählte Kollektivoperation Schritt für Schritt abspielen</translation>
    </message>
    <message>
        <source>Select a collective first (in the timeline, the graph or the Ops table).</source>
        <translation>Zuerst eine Kollektivoperation auswählen (in der Zeitachse, im Graph oder in der Ops-Tabelle).</translation>
    </message>
    <message>
        <source>This collective has one member on this cluster: nothing moves.</source>
        <translation>Diese Kollektivoperation hat auf diesem Cluster nur ein Mitglied: Es wird nichts übertragen.</translation>
    </message>
    <message>
        <source>%1 on rank %2</source>
        <translation>%1 auf Rang %2</translation>
    </message>
    <message>
        <source>&amp;Pipeline schedule…</source>
        <translation>&amp;Pipeline-Zeitplan…</translation>
    </message>
    <message>
        <source>Play the built-in model&apos;s pipeline schedule</source>
        <translation>Den Pipeline-Zeitplan des eingebauten Modells abspielen</translation>
    </message>
    <message>
        <source>The pipeline schedule is shown for a built-in model trained with PP &gt; 1.</source>
        <translation>Der Pipeline-Zeitplan wird für ein eingebautes Modell gezeigt, das mit PP &gt; 1 trainiert wird.</translation>
    </message>
    <message>
        <source>&amp;Network utilisation…</source>
        <translation>&amp;Netzauslastung…</translation>
    </message>
    <message>
        <source>Play how busy the network&apos;s links are over the step</source>
        <translation>Abspielen, wie ausgelastet die Links des Netzes über den Schritt sind</translation>
    </message>
    <message>
        <source>The network&apos;s utilisation is shown once a step has been estimated.</source>
        <translation>Die Netzauslastung wird gezeigt, sobald ein Schritt geschätzt ist.</translation>
    </message>
    <message>
        <source>Shift+wheel</source>
        <translation>Umschalt+Mausrad</translation>
    </message>
    <message>
        <source>Pan the timeline along the step</source>
        <translation>Die Zeitachse entlang des Schritts verschieben</translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation>Umschalt+Ziehen</translation>
    </message>
    <message>
        <source>Select a time range in the timeline (its length is shown)</source>
        <translation>Einen Zeitbereich in der Zeitachse auswählen (seine Länge wird angezeigt)</translation>
    </message>
</context>
<context>
    <name>flint::app::Session</name>
    <message>
        <source>Loading %1…</source>
        <translation>%1 wird geladen…</translation>
    </message>
    <message>
        <source>Estimating on %1…</source>
        <translation>Schätzung auf %1…</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>%1 kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Writing Chakra traces %1…</source>
        <translation>Chakra-Traces %1 werden geschrieben…</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) for %1</source>
        <translation>
            <numerusform>%n Datei für %1 geschrieben</numerusform>
            <numerusform>%n Dateien für %1 geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot write the Chakra traces %1</source>
        <translation>Die Chakra-Traces %1 können nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Cannot estimate this workload on %1</source>
        <translation>Diese Workload kann auf %1 nicht geschätzt werden</translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation>%1 wird kompiliert…</translation>
    </message>
    <message>
        <source>Cannot compile %1</source>
        <translation>%1 kann nicht kompiliert werden</translation>
    </message>
    <message>
        <source>Built-in models need the MLIR frontend</source>
        <translation>Eingebaute Modelle brauchen das MLIR-Frontend</translation>
    </message>
    <message>
        <source>This build has no MLIR frontend (FLINT_BUILD_MLIR=OFF), which built-in models compile through.</source>
        <translation>Dieser Build hat kein MLIR-Frontend (FLINT_BUILD_MLIR=OFF), über das eingebaute Modelle kompiliert werden.</translation>
    </message>
    <message>
        <source>strategy %1</source>
        <translation>Strategie %1</translation>
    </message>
    <message>
        <source>open %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <source>network edit</source>
        <translation>Netzwerkänderung</translation>
    </message>
    <message>
        <source>cluster %1</source>
        <translation>Cluster %1</translation>
    </message>
    <message>
        <source>Reading the measured run %1…</source>
        <translation>Lese den gemessenen Lauf %1…</translation>
    </message>
    <message>
        <source>Cannot read the measured run</source>
        <translation>Der gemessene Lauf kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>Comparing with the measured run…</source>
        <translation>Vergleiche mit dem gemessenen Lauf…</translation>
    </message>
    <message>
        <source>The measured run has %1 ranks and this workload %2: compare a workload with a run of the same size.</source>
        <translation>Der gemessene Lauf hat %1 Ranks, diese Workload %2: Vergleichen Sie eine Workload mit einem Lauf derselben Größe.</translation>
    </message>
    <message>
        <source>Estimating %1 as the baseline…</source>
        <translation>Schätze %1 als Basislinie…</translation>
    </message>
    <message>
        <source>Cannot estimate %1</source>
        <translation>%1 kann nicht geschätzt werden</translation>
    </message>
</context>
<context>
    <name>flint::app::StepSummary</name>
    <message>
        <source>&lt;b&gt;Step time %1&lt;/b&gt; on %2 (%3)&lt;br&gt;per rank: compute %4, exposed communication %5, idle %6</source>
        <translation>&lt;b&gt;Schrittzeit %1&lt;/b&gt; auf %2 (%3)&lt;br&gt;pro Rang: Rechnen %4, nicht überlappte Kommunikation %5, Leerlauf %6</translation>
    </message>
    <message>
        <source>%1, edited</source>
        <translation>%1, bearbeitet</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt;, %2 tokens/s (%3 per GPU)&lt;br&gt;MFU %4% (PaLM, of the BF16 peak)&lt;br&gt;pipeline bubble %5%, exposed communication %6% (busiest rank)&lt;br&gt;memory per GPU %7 of %8 GiB%9&lt;br&gt;&lt;small&gt;weights %10, gradients %11, optimizer %12, activations %13, buffers %14 GiB&lt;/small&gt;</source>
        <translation>&lt;b&gt;Schritt %1&lt;/b&gt;, %2 Tokens/s (%3 pro GPU)&lt;br&gt;MFU %4% (PaLM, bezogen auf die BF16-Spitze)&lt;br&gt;Pipeline-Blase %5%, nicht überlappte Kommunikation %6% (am stärksten belasteter Rang)&lt;br&gt;Speicher pro GPU %7 von %8 GiB%9&lt;br&gt;&lt;small&gt;Gewichte %10, Gradienten %11, Optimierer %12, Aktivierungen %13, Puffer %14 GiB&lt;/small&gt;</translation>
    </message>
    <message>
        <source> — &lt;span style=&apos;color:#c0392b&apos;&gt;&lt;b&gt;OUT OF MEMORY&lt;/b&gt;&lt;/span&gt;</source>
        <translation> — &lt;span style=&apos;color:#c0392b&apos;&gt;&lt;b&gt;SPEICHER REICHT NICHT&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>1 replica</source>
        <translation>1 Replikat</translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 Replikate</translation>
    </message>
    <message>
        <source>1 partition</source>
        <translation>1 Partition</translation>
    </message>
    <message>
        <source>%1 partitions</source>
        <translation>%1 Partitionen</translation>
    </message>
    <message>
        <source>A built-in model: its parallelism, schedule, batch, recomputation and dtype are set in the Parallelism panel and recompiled on every change. Network, device and collective model are set here.</source>
        <translation>Ein eingebautes Modell: Parallelisierung, Zeitplan, Batch, Neuberechnung und Datentyp werden im Bereich „Parallelisierung“ eingestellt und bei jeder Änderung neu kompiliert. Netzwerk, Gerät und Kollektiv-Modell werden hier eingestellt.</translation>
    </message>
    <message>
        <source>Fixed by this module: its global program and shardings, partitioned here for %1 devices (%2 x %3; another mesh with flint --mesh). Network, device and collective model are free to change.</source>
        <translation>Durch dieses Modul festgelegt: sein globales Programm und seine Shardings, hier für %1 Geräte partitioniert (%2 x %3; ein anderes Mesh mit flint --mesh). Netzwerk, Gerät und Kollektiv-Modell sind frei änderbar.</translation>
    </message>
    <message>
        <source>Fixed by this module: %1 devices (%2 x %3) and its parallelism, which XLA already partitioned. Network, device and collective model are free to change.</source>
        <translation>Durch dieses Modul festgelegt: %1 Geräte (%2 x %3) und seine Parallelisierung, die XLA bereits partitioniert hat. Netzwerk, Gerät und Kollektiv-Modell sind frei änderbar.</translation>
    </message>
    <message>
        <source>Warnings:&lt;br&gt;</source>
        <translation>Warnungen:&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: step %2 → %3, %4&lt;br&gt;compute %5, exposed comm %6, idle %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Schritt %2 → %3, %4&lt;br&gt;Rechnen %5, nicht überlappte Komm. %6, Leerlauf %7</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: step %2 → %3, %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Schritt %2 → %3, %4</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;compute includes %1 lost to communication running beside it (%2% of the overlap)&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;die Rechenzeit enthält %1, die an nebenher laufende Kommunikation verloren gehen (%2 % der Überlappung)&lt;/small&gt;</translation>
    </message>
    <message>
        <source>TP overlap</source>
        <translation>TP-Überlappung</translation>
    </message>
    <message numerus="yes">
        <source>interleaved 1F1B (%n chunk(s))</source>
        <translation>
            <numerusform>verschränktes 1F1B (%n Teil)</numerusform>
            <numerusform>verschränktes 1F1B (%n Teile)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n microbatch(es) of %1</source>
        <translation>
            <numerusform>%n Microbatch zu %1</numerusform>
            <numerusform>%n Microbatches zu %1</numerusform>
        </translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>ohne ZeRO</translation>
    </message>
    <message>
        <source> hybrid, shard groups of %1</source>
        <translation> hybrid, Shard-Gruppen zu %1</translation>
    </message>
    <message>
        <source> without reshard after forward</source>
        <translation> ohne Neuverteilung nach dem Vorwärtslauf</translation>
    </message>
    <message>
        <source>gradients reduced after the backward pass</source>
        <translation>Gradienten nach dem Rückwärtslauf reduziert</translation>
    </message>
    <message>
        <source>no recompute</source>
        <translation>ohne Neuberechnung</translation>
    </message>
    <message>
        <source>selective recompute</source>
        <translation>selektive Neuberechnung</translation>
    </message>
    <message>
        <source>full recompute</source>
        <translation>volle Neuberechnung</translation>
    </message>
    <message>
        <source>prefill, batch %1</source>
        <translation>Prefill, Batch %1</translation>
    </message>
    <message>
        <source>decode, batch %1</source>
        <translation>Decode, Batch %1</translation>
    </message>
    <message numerus="yes">
        <source> = %Ln rank(s)</source>
        <translation>
            <numerusform> = %Ln Rang</numerusform>
            <numerusform> = %Ln Ränge</numerusform>
        </translation>
    </message>
    <message>
        <source>weights gathered during the forward pass</source>
        <translation>Gewichte während des Vorwärtslaufs gesammelt</translation>
    </message>
    <message>
        <source>fused cross entropy</source>
        <translation>fusionierte Kreuzentropie</translation>
    </message>
    <message>
        <source>eager kernels</source>
        <translation>Eager-Kernels</translation>
    </message>
    <message>
        <source>HybridEP dispatch (NVLink domains of %1)</source>
        <translation>HybridEP-Verteilung (NVLink-Domänen zu %1)</translation>
    </message>
    <message>
        <source>bf16 gradient reduction</source>
        <translation>Gradientenreduktion in bf16</translation>
    </message>
    <message>
        <source>FP8 current scaling</source>
        <translation>FP8 mit aktueller Skalierung</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;matmuls and attention at the throughput %1 sustains power-saturated (%2% of its burst figure in bf16)&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;Matrixmultiplikationen und Attention mit dem Durchsatz, den %1 unter voller Leistungsaufnahme hält (%2 % seines Spitzenwerts in bf16)&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt;, %2 tokens/s (%3 per GPU)&lt;br&gt;MFU %4% (PaLM, of the BF16 peak)&lt;br&gt;pipeline bubble %5%, exposed communication %6% (busiest rank)&lt;br&gt;memory per GPU %7 of %8 GiB%9&lt;br&gt;&lt;small&gt;weights %10, KV cache %11, working set %12 GiB&lt;/small&gt;</source>
        <translation>&lt;b&gt;Schritt %1&lt;/b&gt;, %2 Tokens/s (%3 pro GPU)&lt;br&gt;MFU %4% (PaLM, bezogen auf die BF16-Spitze)&lt;br&gt;Pipeline-Blase %5%, nicht überlappte Kommunikation %6% (am stärksten belasteter Rang)&lt;br&gt;Speicher pro GPU %7 von %8 GiB%9&lt;br&gt;&lt;small&gt;Gewichte %10, KV-Cache %11, Arbeitsspeicher einer Schicht %12 GiB&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>The model from %1: its parallelism, schedule, batch, recomputation and dtype are set in the Parallelism panel and recompiled on every change. Network, device and collective model are set here.</source>
        <translation>Das Modell aus %1: Parallelisierung, Zeitplan, Batch, Neuberechnung und Datentyp werden im Bereich „Parallelisierung“ eingestellt und bei jeder Änderung neu kompiliert. Netzwerk, Gerät und Kollektiv-Modell werden hier eingestellt.</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;idle includes %1 after the rank&apos;s last op, waiting for the slowest rank&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;Leerlauf enthält %1 nach der letzten Op des Rangs, wartend auf den langsamsten Rang&lt;/small&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Parallelism is fixed by the open module&lt;/b&gt; (%Ln rank(s), as partitioned). To explore strategies, choose a built-in model above or read a model with File…; it replaces the open file.</source>
        <translation>
            <numerusform>&lt;b&gt;Die Parallelisierung ist durch das geöffnete Modul festgelegt&lt;/b&gt; (%Ln Rang, wie partitioniert). Um Strategien zu erkunden, wählen Sie oben ein eingebautes Modell oder lesen Sie ein Modell mit Datei…; es ersetzt die geöffnete Datei.</numerusform>
            <numerusform>&lt;b&gt;Die Parallelisierung ist durch das geöffnete Modul festgelegt&lt;/b&gt; (%Ln Ränge, wie partitioniert). Um Strategien zu erkunden, wählen Sie oben ein eingebautes Modell oder lesen Sie ein Modell mit Datei…; es ersetzt die geöffnete Datei.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Parallelism is fixed by the open trace&lt;/b&gt; (%Ln rank(s), as recorded). To explore strategies, choose a built-in model above or read a model with File…; it replaces the open file.</source>
        <translation>
            <numerusform>&lt;b&gt;Die Parallelisierung ist durch den geöffneten Trace festgelegt&lt;/b&gt; (%Ln Rang, wie aufgezeichnet). Um Strategien zu erkunden, wählen Sie oben ein eingebautes Modell oder lesen Sie ein Modell mit Datei…; es ersetzt die geöffnete Datei.</numerusform>
            <numerusform>&lt;b&gt;Die Parallelisierung ist durch den geöffneten Trace festgelegt&lt;/b&gt; (%Ln Ränge, wie aufgezeichnet). Um Strategien zu erkunden, wählen Sie oben ein eingebautes Modell oder lesen Sie ein Modell mit Datei…; es ersetzt die geöffnete Datei.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fixed by this trace: %Ln rank(s) and their communicator groups, as recorded. Network, device and collective model are free to change.</source>
        <translation>
            <numerusform>Durch diesen Trace festgelegt: %Ln Rang und seine Kommunikatorgruppen, wie aufgezeichnet. Netzwerk, Gerät und Kollektiv-Modell sind frei änderbar.</numerusform>
            <numerusform>Durch diesen Trace festgelegt: %Ln Ränge und ihre Kommunikatorgruppen, wie aufgezeichnet. Netzwerk, Gerät und Kollektiv-Modell sind frei änderbar.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rank(s)</source>
        <translation>
            <numerusform>%Ln Rang</numerusform>
            <numerusform>%Ln Ränge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln op(s) on rank 0</source>
        <translation>
            <numerusform>%Ln Op auf Rang 0</numerusform>
            <numerusform>%Ln Ops auf Rang 0</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln communicator group(s)</source>
        <translation>
            <numerusform>%Ln Kommunikatorgruppe</numerusform>
            <numerusform>%Ln Kommunikatorgruppen</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list (Chinese: a full-width comma)</comment>
        <translation>, </translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;communication includes %1 lost to transfers beside it sharing their links&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;die Kommunikation enthält %1, die an nebenher laufende Übertragungen auf denselben Verbindungen verloren gehen&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;host gaps: %1 of the device waiting for its host, as measured (idle, or exposed communication where a collective ran)&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;Host-Lücken: %1, in denen das Gerät auf seinen Host wartete, wie gemessen (Leerlauf, oder nicht überlappte Kommunikation, wo eine Kollektivoperation lief)&lt;/small&gt;</translation>
    </message>
    <message>
        <source>, FSDP2 copy-out</source>
        <translation>, FSDP2-Kopie nach dem Sammeln</translation>
    </message>
</context>
<context>
    <name>flint::app::SweepPage</name>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>Microbatch size</source>
        <translation>Microbatch-Größe</translation>
    </message>
    <message>
        <source>Bandwidth scale</source>
        <translation>Bandbreitenfaktor</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>Schrittzeit</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>Sweep starten</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Darstellen</translation>
    </message>
    <message>
        <source>Sweeps the model shown in the Parallelism panel; GPUs stay fixed when TP or PP change.</source>
        <translation>Variiert das im Bereich „Parallelisierung“ gezeigte Modell; bei TP- oder PP-Änderungen bleibt die GPU-Zahl gleich.</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>Strategie</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>Memory GiB</source>
        <translation>Speicher GiB</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a positive number</source>
        <translation>„%1“ ist keine positive Zahl</translation>
    </message>
    <message>
        <source>Open a built-in model first (Parallelism panel).</source>
        <translation>Zuerst ein eingebautes Modell öffnen (Bereich „Parallelisierung“).</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>TP x PP x CP = %1 does not divide %2 GPUs</source>
        <translation>TP x PP x CP = %1 teilt %2 GPUs nicht</translation>
    </message>
    <message>
        <source>%1 of %2 points estimated</source>
        <translation>%1 von %2 Punkten geschätzt</translation>
    </message>
    <message>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>Schrittzeit (s)</translation>
    </message>
    <message>
        <source>feasible</source>
        <translation>machbar</translation>
    </message>
    <message>
        <source>invalid or out of memory</source>
        <translation>ungültig oder Speicher reicht nicht</translation>
    </message>
    <message>
        <source>best</source>
        <translation>beste</translation>
    </message>
    <message>
        <source>%1: %2 against %3</source>
        <translation>%1: %2 über %3</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>Schrittzeit</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n point(s)</source>
        <translation>
            <numerusform>Abgebrochen nach %n Punkt</numerusform>
            <numerusform>Abgebrochen nach %n Punkten</numerusform>
        </translation>
    </message>
    <message>
        <source>Sweeping %1…</source>
        <translation>Variiere %1…</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>The open file&apos;s parallelism is fixed, so there is no strategy to sweep: choose a built-in model in the Parallelism panel (or read a model file) to sweep one.</source>
        <translation>Die Parallelisierung der geöffneten Datei steht fest, es gibt keine Strategie zu variieren: Wählen Sie im Bereich „Parallelisierung“ ein eingebautes Modell (oder lesen Sie eine Modelldatei), um eine zu variieren.</translation>
    </message>
    <message>
        <source>No sweep yet: choose a parameter and its values above, then Run sweep.&lt;br&gt;Each point re-estimates the model with that one value changed.</source>
        <translation>Noch kein Sweep: oben Parameter und Werte wählen, dann „Sweep starten“.&lt;br&gt;Jeder Punkt schätzt das Modell mit genau diesem geänderten Wert neu.</translation>
    </message>
    <message>
        <source>Nothing to sweep: the open file fixes its parallelism.</source>
        <translation>Nichts zu variieren: die geöffnete Datei legt ihre Parallelisierung fest.</translation>
    </message>
    <message>
        <source>The plot shows the sweep around %1 on %2; the configuration has changed since: Run sweep to sweep the current one.</source>
        <translation>Das Diagramm zeigt den Sweep um %1 auf %2; die Konfiguration hat sich seitdem geändert: „Sweep starten“ sweept die aktuelle.</translation>
    </message>
    <message>
        <source>Values to try, separated by commas, semicolons or spaces</source>
        <translation>Zu probierende Werte, getrennt durch Kommas, Semikolons oder Leerzeichen (0,5 mit Dezimalkomma)</translation>
    </message>
</context>
<context>
    <name>flint::app::ValidationPage</name>
    <message>
        <source>only estimated</source>
        <translation>nur geschätzt</translation>
    </message>
    <message>
        <source>Open measured run…</source>
        <translation>Gemessenen Lauf öffnen…</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>Vergleich beenden</translation>
    </message>
    <message>
        <source>&lt;b&gt;Measured run&lt;/b&gt; %1: %2; ranks: %3</source>
        <translation>&lt;b&gt;Gemessener Lauf&lt;/b&gt; %1: %2; Ranks: %3</translation>
    </message>
    <message>
        <source>Step time as measured</source>
        <translation>Schrittzeit gemessen</translation>
    </message>
    <message>
        <source>Estimated (this workload on %1)</source>
        <translation>Geschätzt (diese Workload auf %1)</translation>
    </message>
    <message>
        <source>Measured compute, modelled communication</source>
        <translation>Gemessene Rechenzeit, modellierte Kommunikation</translation>
    </message>
    <message>
        <source>Replayed as measured</source>
        <translation>Wiedergabe der Messung</translation>
    </message>
    <message>
        <source>Ops of rank %1; the device waited %2 for the host.</source>
        <translation>Ops von Rank %1; das Gerät wartete %2 auf den Host.</translation>
    </message>
    <message>
        <source>Collective time (ms)</source>
        <translation>Zeit der Kollektive (ms)</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>Kollektiv</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>estimated</source>
        <translation>geschätzt</translation>
    </message>
    <message>
        <source>Each point is a collective of the validated rank; on the line the estimate equals the measurement, above it the estimate is slower.</source>
        <translation>Jeder Punkt ist ein Kollektiv des validierten Ranks; auf der Linie gleicht die Schätzung der Messung, darüber ist die Schätzung langsamer.</translation>
    </message>
    <message>
        <source>estimated = measured</source>
        <translation>geschätzt = gemessen</translation>
    </message>
    <message>
        <source>; step: %1</source>
        <translation>; Schritt: %1</translation>
    </message>
    <message>
        <source>A profile of a real run of this workload: PyTorch profiler traces (.json or .json.gz, one per rank, or a folder of them) or an XLA profiler trace (JAX, TensorFlow)</source>
        <translation>Ein Profil eines echten Laufs dieses Workloads: PyTorch-Profiler-Traces (.json oder .json.gz, eine pro Rank, oder ein Ordner davon) oder ein XLA-Profiler-Trace (JAX, TensorFlow)</translation>
    </message>
    <message>
        <source>Hold the estimate against what really ran: open a profile of a real run of this workload (PyTorch profiler traces, Kineto or legacy, NVIDIA or ROCm; XLA profiler traces of JAX or TensorFlow). The step time is then compared as measured, as estimated, with the run&apos;s measured compute and modelled communication, and replayed as measured; the ops are counted per category on both sides, the collectives paired by kind and order and the ops by name.</source>
        <translation>Die Schätzung mit dem vergleichen, was wirklich lief: Öffnen Sie ein Profil eines echten Laufs dieses Workloads (PyTorch-Profiler-Traces, Kineto oder Legacy, NVIDIA oder ROCm; XLA-Profiler-Traces von JAX oder TensorFlow). Die Schrittzeit wird dann verglichen: gemessen, geschätzt, mit der gemessenen Rechenzeit des Laufs und modellierter Kommunikation, und wie gemessen wiedergegeben; die Operationen werden je Kategorie auf beiden Seiten gezählt, die kollektiven Operationen nach Art und Reihenfolge gepaart und die Operationen nach Namen.</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>Kollektive Operationen</translation>
    </message>
    <message>
        <source>Ops by name</source>
        <translation>Operationen nach Namen</translation>
    </message>
    <message>
        <source>Ops paired by name: an XLA trace names its ops by HLO instruction, as the module XLA dumped does; a PyTorch trace&apos;s kernels share no names with a compiler&apos;s workload.</source>
        <translation>Operationen nach Namen gepaart: Ein XLA-Trace benennt seine Operationen nach HLO-Instruktionen, wie das von XLA geschriebene Modul; die Kernel eines PyTorch-Traces teilen keine Namen mit dem Workload eines Compilers.</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>only measured</source>
        <translation>nur gemessen</translation>
    </message>
    <message>
        <source>The workload is a measured run: its estimate already takes the measured compute, so the estimated rows with and without it agree.</source>
        <translation>Das Workload ist ein gemessener Lauf: Seine Schätzung nimmt bereits die gemessene Rechenzeit, daher stimmen die geschätzten Zeilen mit und ohne sie überein.</translation>
    </message>
    <message>
        <source>A collective&apos;s measured time is its kernel&apos;s on this rank, from its start: it includes waiting for the group&apos;s last member to arrive. The estimated time starts when all members are there.</source>
        <translation>Die gemessene Zeit einer Kollektivoperation ist die ihres Kernels auf diesem Rang ab seinem Start: Sie enthält das Warten auf das letzte Mitglied der Gruppe. Die geschätzte Zeit beginnt, wenn alle Mitglieder da sind.</translation>
    </message>
</context>
<context>
    <name>flint::app::ValidationTableModel</name>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>Workload</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>Kollektiv</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Measured
time</source>
        <translation>Gemessene
Zeit</translation>
    </message>
    <message>
        <source>Estimated
time</source>
        <translation>Geschätzte
Zeit</translation>
    </message>
    <message>
        <source>Measured
size</source>
        <translation>Gemessene
Größe</translation>
    </message>
    <message>
        <source>Workload
size</source>
        <translation>Größe in der
Workload</translation>
    </message>
    <message>
        <source>The collective&apos;s number among those of its kind on this rank, in the order they ran (from 0)</source>
        <translation>Die Nummer der kollektiven Operation unter denen ihrer Art auf diesem Rang, in der Reihenfolge ihres Ablaufs (ab 0)</translation>
    </message>
    <message>
        <source>How many the measured run has on this rank</source>
        <translation>Wie viele der gemessene Lauf auf diesem Rang hat</translation>
    </message>
    <message>
        <source>How many the workload has on this rank</source>
        <translation>Wie viele das Workload auf diesem Rang hat</translation>
    </message>
</context>
<context>
    <name>flint::views::ChartsPage</name>
    <message>
        <source>Step-time breakdown</source>
        <translation>Aufschlüsselung der Schrittzeit</translation>
    </message>
    <message>
        <source>Top ops by time</source>
        <translation>Zeitintensivste Ops</translation>
    </message>
    <message>
        <source>Bytes per collective kind</source>
        <translation>Bytes pro Kollektiv-Art</translation>
    </message>
    <message>
        <source>Traffic per topology dimension</source>
        <translation>Datenverkehr pro Topologiedimension</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>Leerlauf</translation>
    </message>
    <message>
        <source>Step-time breakdown (%1 per rank)</source>
        <translation>Schrittzeit-Anteile (%1 pro Rang)</translation>
    </message>
    <message>
        <source>time over all ranks (%1)</source>
        <translation>Zeit über alle Ränge (%1)</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>base</source>
        <comment>short axis label: the baseline&apos;s mean</comment>
        <translation>Basis</translation>
    </message>
    <message>
        <source>now</source>
        <comment>short axis label: this estimate&apos;s mean</comment>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>exposed comm.</source>
        <translation>offene Komm.</translation>
    </message>
    <message numerus="yes">
        <source>groups of %n rank(s)</source>
        <translation>
            <numerusform>Gruppen aus %n Rang</numerusform>
            <numerusform>Gruppen aus %n Rängen</numerusform>
        </translation>
    </message>
    <message>
        <source>dimension %1</source>
        <translation>Dimension %1</translation>
    </message>
    <message>
        <source>The messages the ranks hand to each kind of collective and send, summed over ranks. The links carry what the algorithms make of them (right): a ring all-reduce of c bytes sends 2(n-1)/n c from each of its n members, a ring all-gather (n-1) c.</source>
        <translation>Die Nachrichten, die die Ränge jeder Art kollektiver Operation übergeben und senden, über alle Ränge summiert. Die Verbindungen tragen, was die Algorithmen daraus machen (rechts): ein Ring-All-Reduce von c Bytes sendet 2(n-1)/n c von jedem seiner n Mitglieder, ein Ring-All-Gather (n-1) c.</translation>
    </message>
    <message>
        <source>Bytes the collectives&apos; algorithms and the sends put on each dimension&apos;s links, summed over ranks: not the message sizes on the left (a ring all-reduce of c bytes sends 2(n-1)/n c from each of its n members), and a transfer that crosses two dimensions counts in both.</source>
        <translation>Bytes, die die Algorithmen der kollektiven Operationen und die Sendungen auf die Verbindungen jeder Dimension legen, über alle Ränge summiert: nicht die Nachrichtengrößen links (ein Ring-All-Reduce von c Bytes sendet 2(n-1)/n c von jedem seiner n Mitglieder), und eine Übertragung über zwei Dimensionen zählt in beiden.</translation>
    </message>
    <message>
        <source>%1 of messages (all ranks)</source>
        <translation>%1 an Nachrichten (alle Ränge)</translation>
    </message>
    <message>
        <source>%1 on the links (all ranks)</source>
        <translation>%1 auf den Links (alle Ränge)</translation>
    </message>
    <message>
        <source>Breakdown per rank (%1; means first)</source>
        <translation>Aufteilung je Rang (%1; Mittel zuerst)</translation>
    </message>
</context>
<context>
    <name>flint::views::CollectiveAnimationDialog</name>
    <message>
        <source>Collective step by step</source>
        <translation>Kollektivoperation Schritt für Schritt</translation>
    </message>
    <message>
        <source>First step</source>
        <translation>Erster Schritt</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>Vorheriger Schritt</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>Last step</source>
        <translation>Letzter Schritt</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 of %3 per GPU over %n GPU(s), %4 in all.</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2 von %3 pro GPU über %n GPU, insgesamt %4.</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2 von %3 pro GPU über %n GPUs, insgesamt %4.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The data moves in %n chunk(s), pipelined through the phases; the steps of one chunk are shown.</source>
        <translation>
            <numerusform>Die Daten werden in %n Block übertragen, im Fließbandverfahren durch die Phasen; gezeigt werden die Schritte eines Blocks.</numerusform>
            <numerusform>Die Daten werden in %n Blöcken übertragen, im Fließbandverfahren durch die Phasen; gezeigt werden die Schritte eines Blocks.</numerusform>
        </translation>
    </message>
    <message>
        <source>Priced with NCCL&apos;s %1 protocol.</source>
        <translation>Mit dem %1-Protokoll von NCCL bewertet.</translation>
    </message>
    <message>
        <source>No steps to show</source>
        <translation>Keine Schritte zu zeigen</translation>
    </message>
    <message>
        <source>This collective moves its data in one round (rooted collectives, permutes and barriers have no staged schedule).</source>
        <translation>Diese Kollektivoperation überträgt ihre Daten in einer Runde (Operationen mit Wurzel, Permutationen und Barrieren haben keinen Stufenablauf).</translation>
    </message>
    <message>
        <source>all members as one ring</source>
        <translation>alle Mitglieder als ein Ring</translation>
    </message>
    <message>
        <source>dimension %1 (%2)</source>
        <translation>Dimension %1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>Phase %1 of %2: %3 by %4 over %5, in %n group(s) of %6 GPUs</source>
        <translation>
            <numerusform>Phase %1 von %2: %3 per %4 über %5, in %n Gruppe aus %6 GPUs</numerusform>
            <numerusform>Phase %1 von %2: %3 per %4 über %5, in %n Gruppen aus je %6 GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>the next GPU of its ring</source>
        <translation>die nächste GPU ihres Rings</translation>
    </message>
    <message>
        <source>every other GPU of its group</source>
        <translation>jede andere GPU ihrer Gruppe</translation>
    </message>
    <message numerus="yes">
        <source>its partner %n position(s) away</source>
        <translation>
            <numerusform>ihren Partner %n Position entfernt</numerusform>
            <numerusform>ihren Partner %n Positionen entfernt</numerusform>
        </translation>
    </message>
    <message>
        <source>its parent in each of the two trees</source>
        <translation>ihren Elternknoten in jedem der beiden Bäume</translation>
    </message>
    <message>
        <source>its children in each of the two trees</source>
        <translation>ihre Kindknoten in jedem der beiden Bäume</translation>
    </message>
    <message>
        <source>the receiver adds it to its own piece</source>
        <translation>der Empfänger addiert es zu seinem eigenen Teil</translation>
    </message>
    <message>
        <source>the receiver keeps it</source>
        <translation>der Empfänger behält es</translation>
    </message>
    <message>
        <source>each receiver keeps the piece meant for it</source>
        <translation>jeder Empfänger behält den für ihn bestimmten Teil</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2: %n GPU(s) send %3 each to %4; %5. This step takes about %6.</source>
        <translation>
            <numerusform>Schritt %1 von %2: %n GPU sendet je %3 an %4; %5. Dieser Schritt dauert etwa %6.</numerusform>
            <numerusform>Schritt %1 von %2: %n GPUs senden je %3 an %4; %5. Dieser Schritt dauert etwa %6.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>one sentence after another</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Priced with NCCL&apos;s %1 protocol, whose latency (%2) comes on top of the steps.</source>
        <translation>Mit dem %1-Protokoll von NCCL bewertet, dessen Latenz (%2) zu den Schritten hinzukommt.</translation>
    </message>
    <message numerus="yes">
        <source>Only the first %n step(s) are shown: this collective has more than a picture holds.</source>
        <translation>
            <numerusform>Nur der erste %n Schritt wird gezeigt: Diese Kollektivoperation hat mehr, als ein Bild fasst.</numerusform>
            <numerusform>Nur die ersten %n Schritte werden gezeigt: Diese Kollektivoperation hat mehr, als ein Bild fasst.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>flint::views::CollectiveAnimationView</name>
    <message>
        <source>dimension %1</source>
        <translation>Dimension %1</translation>
    </message>
    <message>
        <source>adds what arrives</source>
        <translation>addiert, was ankommt</translation>
    </message>
    <message>
        <source>keeps what arrives</source>
        <translation>behält, was ankommt</translation>
    </message>
    <message>
        <source>keeps its piece</source>
        <translation>behält seinen Teil</translation>
    </message>
    <message>
        <source>a node</source>
        <translation>ein Knoten</translation>
    </message>
    <message>
        <source>%1 of %2 messages drawn</source>
        <translation>%1 von %2 Nachrichten gezeichnet</translation>
    </message>
</context>
<context>
    <name>flint::views::CommMatrixPage</name>
    <message>
        <source>Aggregate by node</source>
        <translation>Je Knoten</translation>
    </message>
    <message>
        <source>Show the traffic of one collective kind</source>
        <translation>Datenverkehr einer Kollektiv-Art anzeigen</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>Link time</source>
        <translation>Link-Zeit</translation>
    </message>
    <message>
        <source>Link time: each cell&apos;s bytes over the bandwidth of the topology dimension that carries them (no latency, no contention)</source>
        <translation>Link-Zeit: die Bytes jeder Zelle geteilt durch die Bandbreite der Topologiedimension, die sie überträgt (ohne Latenz, ohne Konkurrenz um den Link)</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>Art:</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeige:</translation>
    </message>
    <message>
        <source>Order:</source>
        <translation>Reihenfolge:</translation>
    </message>
    <message>
        <source>by rank</source>
        <translation>nach Rang</translation>
    </message>
    <message>
        <source>grouped by %1</source>
        <translation>gruppiert nach %1</translation>
    </message>
    <message>
        <source>all kinds</source>
        <translation>alle Arten</translation>
    </message>
    <message>
        <source>Put the ranks of each group side by side, so that a mesh axis&apos;s traffic shows as blocks on the diagonal</source>
        <translation>Die Ränge jeder Gruppe nebeneinander stellen, sodass der Datenverkehr einer Mesh-Achse als Blöcke auf der Diagonalen erscheint</translation>
    </message>
    <message>
        <source>Ordering needs one cell per rank: turn node aggregation off (workloads of more than 1,024 ranks are shown in bins of ranks, in rank order)</source>
        <translation>Die Sortierung braucht eine Zelle pro Rang: Knotenaggregation ausschalten (Workloads mit mehr als 1.024 Rängen werden in Bündeln von Rängen in Rangfolge gezeigt)</translation>
    </message>
    <message>
        <source>Link traffic</source>
        <translation>Verkehr auf den Links</translation>
    </message>
    <message>
        <source>Logical traffic</source>
        <translation>Logischer Verkehr</translation>
    </message>
    <message>
        <source>Link traffic: what the collective algorithms move between ranks (a ring sends everything to its neighbour). Logical traffic: who sends what to whom in the collectives&apos; semantics (an all-to-all sends a share to every member)</source>
        <translation>Verkehr auf den Links: was die Algorithmen der kollektiven Operationen zwischen Ranks bewegen (ein Ring sendet alles an seinen Nachbarn). Logischer Verkehr: wer wem was sendet, nach der Bedeutung der kollektiven Operationen (ein All-to-all sendet jedem Mitglied einen Anteil)</translation>
    </message>
    <message>
        <source>Logical traffic has bytes only: link time belongs to the transfers an algorithm makes</source>
        <translation>Logischer Verkehr hat nur Bytes: die Zeit auf dem Link gehört zu den Übertragungen eines Algorithmus</translation>
    </message>
    <message>
        <source>Difference from baseline</source>
        <translation>Differenz zur Basis</translation>
    </message>
    <message>
        <source>Colour each cell by its change from the pinned baseline: red where this estimate moves more bytes (or link time), blue where it moves fewer</source>
        <translation>Jede Zelle nach ihrer Änderung gegenüber der festgehaltenen Basislinie färben: rot, wo diese Schätzung mehr Bytes (oder Link-Zeit) bewegt, blau, wo weniger</translation>
    </message>
    <message>
        <source>The baseline has another number of ranks: its cells cannot be compared one by one</source>
        <translation>Die Basislinie hat eine andere Zahl von Rängen: ihre Zellen lassen sich nicht einzeln vergleichen</translation>
    </message>
    <message>
        <source>Pin an estimate as the baseline (Edit &gt; Pin current estimate as baseline, Ctrl+B) to compare with it</source>
        <translation>Eine Schätzung als Basislinie festhalten (Bearbeiten &gt; Aktuelle Schätzung als Basislinie festhalten, Strg+B), um mit ihr zu vergleichen</translation>
    </message>
</context>
<context>
    <name>flint::views::CommMatrixView</name>
    <message>
        <source>No estimate yet</source>
        <translation>Noch keine Schätzung</translation>
    </message>
    <message>
        <source>No rank-to-rank traffic in this step</source>
        <translation>Kein Datenverkehr zwischen Rängen in diesem Schritt</translation>
    </message>
    <message>
        <source>No %1 traffic in this step</source>
        <translation>Kein %1-Datenverkehr in diesem Schritt</translation>
    </message>
    <message>
        <source> (grouped order)</source>
        <translation> (gruppierte Reihenfolge)</translation>
    </message>
    <message>
        <source>destination node</source>
        <translation>Zielknoten</translation>
    </message>
    <message>
        <source>destination rank</source>
        <translation>Zielrang</translation>
    </message>
    <message>
        <source>source node</source>
        <translation>Quellknoten</translation>
    </message>
    <message>
        <source>source rank</source>
        <translation>Quellrang</translation>
    </message>
    <message>
        <source>bytes, log scale</source>
        <translation>Bytes, logarithmische Skala</translation>
    </message>
    <message>
        <source>link time, log scale</source>
        <translation>Link-Zeit, logarithmische Skala</translation>
    </message>
    <message>
        <source>ranks %1 → %2: %3, %4 on the link%5</source>
        <translation>Ränge %1 → %2: %3, %4 auf dem Link%5</translation>
    </message>
    <message>
        <source>logical bytes, log scale</source>
        <translation>logische Bytes, log. Skala</translation>
    </message>
    <message>
        <source>ranks %1 → %2: %3 in the collectives&apos; semantics%4</source>
        <translation>Ranks %1 → %2: %3 nach der Bedeutung der kollektiven Operationen%4</translation>
    </message>
    <message>
        <source>change from the baseline in bytes, log scale</source>
        <translation>Änderung gegenüber der Basislinie in Bytes, logarithmisch</translation>
    </message>
    <message>
        <source>change from the baseline in link time, log scale</source>
        <translation>Änderung gegenüber der Basislinie in Link-Zeit, logarithmisch</translation>
    </message>
    <message>
        <source>ranks %1 → %2: %3%4 against the baseline (%5 there, %6 here)%7</source>
        <translation>Ränge %1 → %2: %3%4 gegenüber der Basislinie (dort %5, hier %6)%7</translation>
    </message>
    <message>
        <source>No difference from the baseline</source>
        <translation>Kein Unterschied zur Basislinie</translation>
    </message>
</context>
<context>
    <name>flint::views::DagStyle</name>
    <message>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>memory load/store</source>
        <translation>Speicher laden/speichern</translation>
    </message>
    <message>
        <source>send / recv</source>
        <translation>Senden / Empfangen</translation>
    </message>
    <message>
        <source>other</source>
        <translation>Sonstiges</translation>
    </message>
    <message>
        <source>group (double-click)</source>
        <translation>Gruppe (Doppelklick)</translation>
    </message>
    <message>
        <source>repeated block ×N</source>
        <translation>wiederholter Block ×N</translation>
    </message>
</context>
<context>
    <name>flint::views::DagView</name>
    <message>
        <source>Find op by name or kind (Enter: next)</source>
        <translation>Op nach Name/Art suchen (↵: weiter)</translation>
    </message>
    <message>
        <source>The graph could not be laid out (more than %1 nodes, or Graphviz failed).</source>
        <translation>Der Graph konnte nicht angeordnet werden (mehr als %1 Knoten, oder Graphviz ist fehlgeschlagen).</translation>
    </message>
    <message>
        <source>“%1” holds %2 ops: opening it would show %3 nodes, more than the %4 the view lays out. Search for an op inside it to open just its part.</source>
        <translation>„%1“ enthält %2 Ops: Aufklappen würde %3 Knoten zeigen, mehr als die %4, die die Ansicht anordnet. Suchen Sie eine Op darin, um nur ihren Teil aufzuklappen.</translation>
    </message>
    <message>
        <source>The op is in a part of the graph too large to show.</source>
        <translation>Die Op liegt in einem Teil des Graphen, der zu groß zum Anzeigen ist.</translation>
    </message>
    <message>
        <source>No op matches “%1”.</source>
        <translation>Keine Op passt zu „%1“.</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message>
        <source>Match %1 of %2</source>
        <translation>Treffer %1 von %2</translation>
    </message>
    <message>
        <source>Flint Explorer DAG</source>
        <translation>Flint-Explorer-DAG</translation>
    </message>
    <message>
        <source>laying out…</source>
        <translation>wird angeordnet…</translation>
    </message>
    <message>
        <source>No program loaded</source>
        <translation>Kein Programm geladen</translation>
    </message>
    <message>
        <source>control dependency</source>
        <translation>Steuerabhängigkeit</translation>
    </message>
    <message>
        <source>data dependency</source>
        <translation>Datenabhängigkeit</translation>
    </message>
    <message>
        <source>Laying out the graph…</source>
        <translation>Graph wird angeordnet…</translation>
    </message>
    <message>
        <source>dependencies per edge</source>
        <translation>Abhängigkeiten je Kante</translation>
    </message>
</context>
<context>
    <name>flint::views::NetworkUtilisationDialog</name>
    <message>
        <source>Network utilisation</source>
        <translation>Netzauslastung</translation>
    </message>
    <message numerus="yes">
        <source>How busy each dimension&apos;s links are over the step: the bytes the ranks send on it over what the links could carry, in %n slice(s) of %1. Filled: all ranks&apos; mean; line: the busiest rank. Play or drag to move the time cursor; the links on the left show it.</source>
        <translation>
            <numerusform>Wie ausgelastet die Links jeder Dimension über den Schritt sind: die Bytes, die die Ränge darauf senden, geteilt durch das, was die Links tragen könnten, in %n Abschnitt von %1. Fläche: Mittel aller Ränge; Linie: der am stärksten belastete Rang. Abspielen oder ziehen bewegt den Zeitcursor; die Links links zeigen ihn.</numerusform>
            <numerusform>Wie ausgelastet die Links jeder Dimension über den Schritt sind: die Bytes, die die Ränge darauf senden, geteilt durch das, was die Links tragen könnten, in %n Abschnitten von je %1. Fläche: Mittel aller Ränge; Linie: der am stärksten belastete Rang. Abspielen oder ziehen bewegt den Zeitcursor; die Links links zeigen ihn.</numerusform>
        </translation>
    </message>
    <message>
        <source>Above 100 %: transfers that overlap in time each run at the link&apos;s full bandwidth in this model (a pipeline send beside a data-parallel collective, collectives on several streams); a real network shares the link, so they would take longer.</source>
        <translation>Über 100 %: Übertragungen, die sich zeitlich überlappen, laufen in diesem Modell jede mit der vollen Bandbreite des Links (ein Pipeline-Senden neben einer datenparallelen Kollektivoperation, Kollektive auf mehreren Streams); ein echtes Netz teilt den Link, sie würden also länger dauern.</translation>
    </message>
</context>
<context>
    <name>flint::views::NetworkUtilisationView</name>
    <message>
        <source>switch</source>
        <translation>Switch</translation>
    </message>
    <message numerus="yes">
        <source>Dimension %1: %2 of %Ln NPU(s)</source>
        <translation>
            <numerusform>Dimension %1: %2 mit %Ln NPU</numerusform>
            <numerusform>Dimension %1: %2 mit %Ln NPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>average over the step %1, busiest rank at its peak %2; %3 sent</source>
        <translation>Mittel über den Schritt %1, stärkster Rang in der Spitze %2; %3 gesendet</translation>
    </message>
    <message>
        <source>%1 per NPU, now %2 (mean)</source>
        <translation>%1 je NPU, jetzt %2 (Mittel)</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
</context>
<context>
    <name>flint::views::OpsPage</name>
    <message>
        <source>Filter by name, kind or scope</source>
        <translation>Nach Name, Art oder Bereich filtern</translation>
    </message>
    <message numerus="yes">
        <source>%Ln op(s) of rank %1</source>
        <translation>
            <numerusform>%Ln Op von Rang %1</numerusform>
            <numerusform>%Ln Ops von Rang %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln op(s) of rank %2</source>
        <translation>
            <numerusform>%1 von %Ln Op von Rang %2</numerusform>
            <numerusform>%1 von %Ln Ops von Rang %2</numerusform>
        </translation>
    </message>
    <message>
        <source>the baseline runs other ops: no per-op change to show</source>
        <translation>die Basislinie führt andere Operationen aus: keine Änderung je Operation</translation>
    </message>
</context>
<context>
    <name>flint::views::OpsTableModel</name>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>Estimated start, from the step&apos;s start</source>
        <translation>Geschätzter Beginn, ab dem Beginn des Schritts</translation>
    </message>
    <message>
        <source>Estimated time once the op runs</source>
        <translation>Geschätzte Dauer, sobald die Op läuft</translation>
    </message>
    <message>
        <source>Time a collective waited for the last member of its group</source>
        <translation>Zeit, die ein Kollektiv auf das letzte Mitglied seiner Gruppe gewartet hat</translation>
    </message>
    <message>
        <source>Device memory bytes read and written</source>
        <translation>Gelesene und geschriebene Bytes im Gerätespeicher</translation>
    </message>
    <message>
        <source>Bytes this rank contributes to a collective or sends</source>
        <translation>Bytes, die dieser Rang zu einem Kollektiv beiträgt oder sendet</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Op</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Beginn</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Waited</source>
        <translation>Gewartet</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Communicated</source>
        <translation>Kommuniziert</translation>
    </message>
    <message>
        <source>The op&apos;s time minus its time in the pinned baseline</source>
        <translation>Zeit der Op minus ihre Zeit in der festgehaltenen Basislinie</translation>
    </message>
    <message>
        <source>vs baseline</source>
        <translation>ggü. Basislinie</translation>
    </message>
</context>
<context>
    <name>flint::views::ParallelismPanel</name>
    <message>
        <source>A built-in model with its published hyperparameters (docs/models.md)</source>
        <translation>Ein eingebautes Modell mit seinen veröffentlichten Hyperparametern (docs/models.md)</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>Datei…</translation>
    </message>
    <message>
        <source>Read a model from a &apos;key = value&apos; file</source>
        <translation>Ein Modell aus einer „key = value“-Datei lesen</translation>
    </message>
    <message>
        <source>Tensor parallelism: Megatron column/row-parallel matmuls</source>
        <translation>Tensor-Parallelisierung: spalten-/zeilenparallele Matmuls nach Megatron</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>Pipeline-Stufen</translation>
    </message>
    <message>
        <source>Data-parallel replicas</source>
        <translation>Datenparallele Replikate</translation>
    </message>
    <message>
        <source>Context parallelism: the sequence split over ranks (ring attention)</source>
        <translation>Kontext-Parallelisierung: die Sequenz auf Ränge verteilt (Ring-Attention)</translation>
    </message>
    <message>
        <source>Expert parallelism (mixture-of-experts models); divides DP</source>
        <translation>Experten-Parallelisierung (Mixture-of-Experts-Modelle); teilt DP</translation>
    </message>
    <message>
        <source>Sequence parallelism</source>
        <translation>Sequenz-Parallelisierung</translation>
    </message>
    <message>
        <source>Model chunks per pipeline rank (interleaved schedule)</source>
        <translation>Modellteile pro Pipeline-Rang (verschachtelter Zeitplan)</translation>
    </message>
    <message>
        <source>Sequences per microbatch</source>
        <translation>Sequenzen pro Microbatch</translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation>Sequenzen pro Schritt</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash-Attention</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>CP</source>
        <translation>CP</translation>
    </message>
    <message>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>Virtuelle Stufen</translation>
    </message>
    <message>
        <source>Microbatch</source>
        <translation>Microbatch</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>Globaler Batch</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>Neuberechnung</translation>
    </message>
    <message>
        <source>Matmul dtype</source>
        <translation>Matmul-Datentyp</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>%1 (TP x CP x PP x DP)</source>
        <translation>%1 (TP x CP x PP x DP)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;; try %2&lt;br&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;; versuchen Sie %2&lt;br&gt;</translation>
    </message>
    <message>
        <source>Reshard after forward</source>
        <translation>Nach Vorwärtslauf neu verteilen</translation>
    </message>
    <message>
        <source>ZeRO-3 (FSDP): free each layer&apos;s gathered parameters after its forward pass and gather them again for its backward pass</source>
        <translation>ZeRO-3 (FSDP): die gesammelten Parameter jeder Schicht nach ihrem Vorwärtslauf freigeben und für ihren Rückwärtslauf erneut sammeln</translation>
    </message>
    <message>
        <source>ZeRO-3 hybrid sharding (HSDP): shard over groups of this many data-parallel ranks and replicate across the groups</source>
        <translation>ZeRO-3 mit hybrider Aufteilung (HSDP): über Gruppen aus so vielen datenparallelen Rängen aufteilen und zwischen den Gruppen replizieren</translation>
    </message>
    <message>
        <source>all of DP</source>
        <translation>ganz DP</translation>
    </message>
    <message>
        <source>Shard group</source>
        <translation>Shard-Gruppe</translation>
    </message>
    <message>
        <source>Choose a built-in model…</source>
        <translation>Eingebautes Modell wählen…</translation>
    </message>
    <message>
        <source>TP overlap</source>
        <translation>TP-Überlappung</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s --tp-comm-overlap: tensor-parallel all-gathers and reduce-scatters pipelined with the GEMMs they feed or follow (training, TP &gt; 1)</source>
        <translation>--tp-comm-overlap von Megatron-LM: tensorparallele All-Gathers und Reduce-Scatters werden mit den GEMMs, die sie speisen oder denen sie folgen, verzahnt (Training, TP &gt; 1)</translation>
    </message>
    <message>
        <source>interleaved 1F1B</source>
        <translation>verschränktes 1F1B</translation>
    </message>
    <message>
        <source>none</source>
        <comment>ZeRO stage</comment>
        <translation>keine</translation>
    </message>
    <message>
        <source>none</source>
        <comment>recomputation</comment>
        <translation>keine</translation>
    </message>
    <message>
        <source>selective</source>
        <comment>recomputation</comment>
        <translation>selektiv</translation>
    </message>
    <message>
        <source>full</source>
        <comment>recomputation</comment>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>Prefill</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>Decode</translation>
    </message>
    <message>
        <source>Overlap gradient reduction</source>
        <translation>Gradientenreduktion überlappen</translation>
    </message>
    <message>
        <source>ZeRO 0-2: reduce each layer&apos;s gradients once its last backward pass has produced them, behind the rest of the backward pass (PyTorch DDP, Megatron-LM&apos;s --overlap-grad-reduce); off, after the whole backward pass</source>
        <translation>ZeRO 0-2: die Gradienten jeder Schicht reduzieren, sobald ihr letzter Rückwärtslauf sie erzeugt hat, hinter dem Rest des Rückwärtslaufs (PyTorch DDP, --overlap-grad-reduce von Megatron-LM); aus: nach dem ganzen Rückwärtslauf</translation>
    </message>
    <message>
        <source>Overlap parameter gather</source>
        <translation>Parameter-Sammeln überlappen</translation>
    </message>
    <message>
        <source>ZeRO 1-2: gather the updated weights layer by layer during the forward pass (Megatron-Core&apos;s --overlap-param-gather); off, after the optimizer</source>
        <translation>ZeRO 1-2: die aktualisierten Gewichte Schicht für Schicht während des Vorwärtslaufs sammeln (--overlap-param-gather von Megatron-Core); aus: nach dem Optimierer</translation>
    </message>
    <message>
        <source>Fused cross entropy</source>
        <translation>Fusionierte Kreuzentropie</translation>
    </message>
    <message>
        <source>The loss as one fused kernel pass over the logits (Transformer Engine&apos;s, Megatron-Bridge&apos;s and llm-foundry&apos;s default); off, a kernel per step in fp32 as Megatron-LM and PyTorch&apos;s cross_entropy run it</source>
        <translation>Der Loss als ein fusionierter Kernel-Durchlauf über die Logits (Standard in Transformer Engine, Megatron-Bridge und llm-foundry); aus: ein Kernel je Schritt in fp32, wie Megatron-LM und PyTorchs cross_entropy ihn rechnen</translation>
    </message>
    <message>
        <source>Eager PyTorch kernels</source>
        <translation>Eager-PyTorch-Kernels</translation>
    </message>
    <message>
        <source>RMSNorm and the rotary embedding as uncompiled PyTorch runs them, a kernel per tensor operation in fp32 (torchtitan, IBM fms); off, one fused kernel each</source>
        <translation>RMSNorm und die Rotary-Einbettung, wie unkompiliertes PyTorch sie ausführt: ein Kernel je Tensoroperation in fp32 (torchtitan, IBM fms); aus: je ein fusionierter Kernel</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>All-to-All</translation>
    </message>
    <message>
        <source>How routed tokens reach their experts (EP &gt; 1): all-to-all sends a copy per chosen expert (Megatron-LM&apos;s alltoall dispatcher); HybridEP sends a token once per node over the network and once per GPU over NVLink (Megatron-Core&apos;s flex dispatcher with HybridEP or DeepEP)</source>
        <translation>Wie geroutete Tokens ihre Experten erreichen (EP &gt; 1): All-to-All sendet eine Kopie je gewähltem Experten (Megatron-LMs alltoall-Dispatcher); HybridEP sendet ein Token einmal je Knoten über das Netzwerk und einmal je GPU über NVLink (Megatron-Cores flex-Dispatcher mit HybridEP oder DeepEP)</translation>
    </message>
    <message>
        <source>HybridEP: ranks per NVLink domain (8 on a DGX or HGX node, 72 on NVL72)</source>
        <translation>HybridEP: Ranks je NVLink-Domäne (8 in einem DGX- oder HGX-Knoten, 72 bei NVL72)</translation>
    </message>
    <message>
        <source>Dispatch</source>
        <translation>Verteilung</translation>
    </message>
    <message>
        <source>Reduce gradients in bf16</source>
        <translation>Gradienten in bf16 reduzieren</translation>
    </message>
    <message>
        <source>Accumulate and reduce data-parallel gradients in bf16 (Megatron-Bridge&apos;s performance recipes); off, in fp32 as Megatron-LM does by default</source>
        <translation>Datenparallele Gradienten in bf16 akkumulieren und reduzieren (Performance-Rezepte von Megatron-Bridge); aus: in fp32, wie Megatron-LM es standardmäßig tut</translation>
    </message>
    <message>
        <source>fp8, delayed scaling</source>
        <translation>fp8, verzögerte Skalierung</translation>
    </message>
    <message>
        <source>fp8, current scaling</source>
        <translation>fp8, aktuelle Skalierung</translation>
    </message>
    <message>
        <source>The matmuls&apos; precision. FP8 as Transformer Engine runs it: weights cast once a step, activations and gradients cast once each; current scaling reads each tensor once more for its amax (docs/models.md)</source>
        <translation>Die Genauigkeit der Matrixmultiplikationen. FP8 so, wie Transformer Engine es ausführt: Gewichte einmal pro Schritt umgewandelt, Aktivierungen und Gradienten je einmal; aktuelle Skalierung liest jeden Tensor ein weiteres Mal für sein Amax (docs/models.md)</translation>
    </message>
    <message>
        <source>The figures of the previous strategy: the current one is not estimated yet</source>
        <translation>Die Werte der vorigen Strategie: die aktuelle ist noch nicht geschätzt</translation>
    </message>
    <message>
        <source>The figures below are those of the last valid strategy.</source>
        <translation>Die Werte unten gehören zur letzten gültigen Strategie.</translation>
    </message>
    <message>
        <source>FSDP2 copy-out</source>
        <translation>FSDP2-Kopie nach dem Sammeln</translation>
    </message>
    <message>
        <source>ZeRO-3 as PyTorch FSDP2 (fully_shard, torchtitan) runs it: after every all-gather, a copy on the compute stream splits the gathered buffer into the layer&apos;s parameters; off, as FSDP1 and DeepSpeed, the layers compute on the gathered buffer</source>
        <translation>ZeRO-3, wie PyTorch FSDP2 (fully_shard, torchtitan) es ausführt: nach jedem All-Gather teilt eine Kopie auf dem Rechenstrom den gesammelten Puffer in die Parameter der Schicht auf; aus: wie FSDP1 und DeepSpeed rechnen die Schichten direkt auf dem gesammelten Puffer</translation>
    </message>
</context>
<context>
    <name>flint::views::PipelineScheduleDialog</name>
    <message>
        <source>Pipeline schedule</source>
        <translation>Pipeline-Zeitplan</translation>
    </message>
    <message numerus="yes">
        <source>interleaved 1F1B (%n chunk(s) per stage)</source>
        <translation>
            <numerusform>verschränktes 1F1B (%n Teil pro Stufe)</numerusform>
            <numerusform>verschränktes 1F1B (%n Teile pro Stufe)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; over %2 stages with %n microbatch(es): each stage idles %3 of the step (the bubble, hatched) when a forward pass takes one unit, a backward pass two and nothing else takes time. Boxes are numbered by microbatch; light forward, dark backward.</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; über %2 Stufen mit %n Microbatch: Jede Stufe ist %3 des Schritts untätig (die Blase, schraffiert), wenn ein Vorwärtslauf eine Einheit dauert, ein Rückwärtslauf zwei und sonst nichts Zeit kostet. Die Kästen tragen die Nummer ihres Microbatches; hell vorwärts, dunkel rückwärts.</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; über %2 Stufen mit %n Microbatches: Jede Stufe ist %3 des Schritts untätig (die Blase, schraffiert), wenn ein Vorwärtslauf eine Einheit dauert, ein Rückwärtslauf zwei und sonst nichts Zeit kostet. Die Kästen tragen die Nummer ihres Microbatches; hell vorwärts, dunkel rückwärts.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>flint::views::PipelineScheduleView</name>
    <message>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>time, in forward passes of one microbatch through one stage</source>
        <translation>Zeit in Vorwärtsläufen eines Microbatches durch eine Stufe</translation>
    </message>
</context>
<context>
    <name>flint::views::PlayButton</name>
    <message>
        <source>Play</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
</context>
<context>
    <name>flint::views::TimelinePage</name>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Group lanes by:</source>
        <translation>Spuren gruppieren nach:</translation>
    </message>
    <message numerus="yes">
        <source>node (%n rank(s) each)</source>
        <translation>
            <numerusform>Knoten (je %n Rang)</numerusform>
            <numerusform>Knoten (je %n Ränge)</numerusform>
        </translation>
    </message>
    <message>
        <source>forward</source>
        <translation>vorwärts</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>rückwärts</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>%1. How lanes are grouped; click a group&apos;s label in the timeline to collapse it</source>
        <translation>%1. Wie die Spuren gruppiert werden; ein Klick auf die Beschriftung einer Gruppe in der Zeitachse klappt sie zu</translation>
    </message>
</context>
<context>
    <name>flint::views::TimelineView</name>
    <message>
        <source>program %1</source>
        <translation>Programm %1</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>Gruppe %1</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>Knoten %1</translation>
    </message>
    <message>
        <source>No estimate yet: open a workload</source>
        <translation>Noch keine Schätzung: Öffnen Sie eine Workload</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n rank(s) (%2), collapsed. Shade: share of its ranks computing (top) and communicating (bottom). Click the label to expand.</source>
        <translation>
            <numerusform>%1: %n Rang (%2), zugeklappt. Schattierung: Anteil der Ränge, die rechnen (oben) und kommunizieren (unten). Ein Klick auf die Beschriftung klappt auf.</numerusform>
            <numerusform>%1: %n Ränge (%2), zugeklappt. Schattierung: Anteil der Ränge, die rechnen (oben) und kommunizieren (unten). Ein Klick auf die Beschriftung klappt auf.</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 on rank %3&lt;br&gt;start %4, duration %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 auf Rang %3&lt;br&gt;Start %4, Dauer %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;waited %1 for its peers</source>
        <translation>&lt;br&gt;hat %1 auf ihre Partner gewartet</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 per rank</source>
        <translation>&lt;br&gt;%1 pro Rang</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 FLOP, %2 of memory traffic</source>
        <translation>&lt;br&gt;%1 FLOP, %2 Speicherverkehr</translation>
    </message>
    <message>
        <source>%1 to %2 (%3): compute %4%, exposed communication %5%, idle %6%, %7 ops</source>
        <translation>%1 bis %2 (%3): Rechnen %4 %, nicht überlappte Kommunikation %5 %, Leerlauf %6 %, %7 Ops</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <source>forward %1</source>
        <translation>vorwärts %1</translation>
    </message>
    <message>
        <source>backward %1</source>
        <translation>rückwärts %1</translation>
    </message>
</context>
<context>
    <name>flint::views::WhatIfPanel</name>
    <message>
        <source>(custom)</source>
        <translation>(benutzerdefiniert)</translation>
    </message>
    <message>
        <source>A built-in system, sized to the workload&apos;s ranks</source>
        <translation>Ein eingebautes System, passend zur Rangzahl der Workload</translation>
    </message>
    <message>
        <source>Flint (default)</source>
        <translation>Flint (Standard)</translation>
    </message>
    <message>
        <source>ASTRA-sim analytical</source>
        <translation>ASTRA-sim analytisch</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Collective model</source>
        <translation>Kollektiv-Modell</translation>
    </message>
    <message>
        <source>Comm streams</source>
        <translation>Komm.-Streams</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>Topologie</translation>
    </message>
    <message>
        <source>NPUs</source>
        <translation>NPUs</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Network dimensions (innermost first)</source>
        <translation>Netzwerkdimensionen (innerste zuerst)</translation>
    </message>
    <message>
        <source>Fixed by the workload&apos;s rank count</source>
        <translation>Durch die Rangzahl der Workload festgelegt</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>Verfahren</translation>
    </message>
    <message>
        <source>Per-NPU bandwidth, one direction, in GB/s (GB = 10^9 bytes, as in data sheets and flint --scale-out-bandwidth)</source>
        <translation>Bandbreite pro NPU und Richtung in GB/s (GB = 10^9 Byte, wie in Datenblättern und bei flint --scale-out-bandwidth)</translation>
    </message>
    <message>
        <source>How the NPUs of this dimension are connected</source>
        <translation>Wie die NPUs dieser Dimension verbunden sind</translation>
    </message>
    <message>
        <source>NPUs along this dimension</source>
        <translation>NPUs entlang dieser Dimension</translation>
    </message>
    <message>
        <source>Bandwidth per NPU in this dimension, GB/s</source>
        <translation>Bandbreite pro NPU in dieser Dimension, GB/s</translation>
    </message>
    <message>
        <source>ns</source>
        <translation>ns</translation>
    </message>
    <message>
        <source>Latency per hop, ns</source>
        <translation>Latenz pro Hop, ns</translation>
    </message>
    <message>
        <source>Collective algorithm in this dimension</source>
        <translation>Kollektiv-Algorithmus in dieser Dimension</translation>
    </message>
    <message>
        <source>%1 in a network YAML file</source>
        <translation>%1 in einer Netzwerk-YAML-Datei</translation>
    </message>
    <message>
        <source>%1: the collective algorithm on this dimension. Double binary tree applies to all-reduce; the other collectives then use the ring.</source>
        <translation>%1: der Kollektiv-Algorithmus auf dieser Dimension. Der doppelte Binärbaum gilt für All-Reduce; die anderen Kollektive verwenden dann den Ring.</translation>
    </message>
</context>
<context>
    <name>flint::views::kindLabel</name>
    <message>
        <source>metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>memory load</source>
        <translation>Speicher laden</translation>
    </message>
    <message>
        <source>memory store</source>
        <translation>Speicher schreiben</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>recv</source>
        <translation>Empfangen</translation>
    </message>
</context>
<context>
    <name>flint::views::partitionLabel</name>
    <message numerus="yes">
        <source>communicators: %n group(s) of %1 ranks (%2)</source>
        <translation>
            <numerusform>Kommunikatoren: %n Gruppe aus %1 Rängen (%2)</numerusform>
            <numerusform>Kommunikatoren: %n Gruppen aus je %1 Rängen (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%2: %n group(s) of %1 ranks</source>
        <translation>
            <numerusform>%2: %n Gruppe aus %1 Rängen</numerusform>
            <numerusform>%2: %n Gruppen aus je %1 Rängen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%3: %n group(s) of %1 ranks (%2)</source>
        <translation>
            <numerusform>%3: %n Gruppe aus %1 Rängen (%2)</numerusform>
            <numerusform>%3: %n Gruppen aus je %1 Rängen (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pipeline stages: %n of %1 ranks each</source>
        <translation>
            <numerusform>Pipeline-Stufen: %n mit je %1 Rängen</numerusform>
            <numerusform>Pipeline-Stufen: %n mit je %1 Rängen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>programs: %n of %1 ranks each</source>
        <translation>
            <numerusform>Programme: %n mit je %1 Rängen</numerusform>
            <numerusform>Programme: %n mit je %1 Rängen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Explore distributed ML workloads without a cluster.</source>
        <translation>Verteilte ML-Workloads ohne Cluster erkunden.</translation>
    </message>
    <message>
        <source>Render the window once the estimate is ready, save it and exit.</source>
        <translation>Das Fenster rendern, sobald die Schätzung fertig ist, als Bild speichern und beenden.</translation>
    </message>
    <message>
        <source>User interface language instead of the system&apos;s: %1 or en.</source>
        <translation>Sprache der Oberfläche statt der des Systems: %1 oder en.</translation>
    </message>
    <message>
        <source>Tab to show: graph, timeline, communication, charts, ops, validation or sweep (English names, also under other languages; a unique prefix will do).</source>
        <translation>Anzuzeigender Tab: graph, timeline, communication, charts, ops, validation oder sweep (englische Namen, auch in anderen Sprachen; ein eindeutiger Präfix genügt).</translation>
    </message>
    <message>
        <source>An XLA HLO or MLIR module, a Chakra trace (file, prefix or folder), a measured profile (PyTorch or JAX) or a model file. Default: the built-in GPT-3 175B on 1,024 H100s.</source>
        <translation>Ein XLA-HLO- oder MLIR-Modul, ein Chakra-Trace (Datei, Präfix oder Ordner), ein gemessenes Profil (PyTorch oder JAX) oder eine Modelldatei. Standard: das eingebaute GPT-3 175B auf 1.024 H100.</translation>
    </message>
    <message>
        <source>Compare the estimate with this measured run (a PyTorch or XLA/JAX profiler trace, a folder of one per rank, or a Chakra trace with recorded times) in the Validation tab.</source>
        <translation>Die Schätzung im Reiter „Validierung“ mit diesem gemessenen Lauf vergleichen (ein PyTorch- oder XLA/JAX-Profiler-Trace, ein Ordner mit einem pro Rang oder ein Chakra-Trace mit aufgezeichneten Zeiten).</translation>
    </message>
    <message>
        <source>With --screenshot: save the picture with a palette of its 256 most frequent colours (less than half the bytes; the pictures in docs).</source>
        <translation>Mit --screenshot: das Bild mit einer Palette seiner 256 häufigsten Farben speichern (weniger als die Hälfte der Bytes; die Bilder in docs).</translation>
    </message>
</context>
</TS>
