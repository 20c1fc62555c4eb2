import { en } from 'zod/locales';
import * as z from 'zod/mini';

/**
 * zod/mini loads no locale: without one, every issue that carries no message of its own reads "Invalid
 * input". The English messages are part of the API's 400 details (and of ConfigError), so each module
 * that defines or applies a schema imports this one for its effect.
 */
z.config(en());
