// The baseline: a bare Fastify route answering a small JSON body, in a process of its own like the
// real server, so the difference is what the product's stack costs per request.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'success', grid_order: 'row' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
