import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';

/** Cookies get `Secure` when the site is reached over HTTPS (directly or, if trusted, behind a proxy). */
export function isSecure(services: Services, request: FastifyRequest): boolean {
  return request.protocol === 'https' || Boolean(services.config.PUBLIC_URL?.startsWith('https:'));
}

export function requestMeta(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
