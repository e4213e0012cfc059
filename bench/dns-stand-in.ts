import dns2 from 'dns2';

/**
 * A DNS server on loopback that answers every A query with one public address (and AAAA with none), so our
 * server's destination checks run for real without the internet; after the first lookup of a host they answer
 * from the check's cache, which is what the bench measures ("warm caches").
 */
export async function startDnsStandIn(): Promise<{ servers: string[]; close(): Promise<void> }> {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (question?.type === Packet.TYPE.A) {
        response.answers.push(Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: 300, address: '93.184.216.34' }));
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = server.addresses().udp?.port;
  return { servers: [`127.0.0.1:${port}`], close: () => server.close() };
}
