import { createHashRouter } from '../shared/router';

export const { route, navigate } = createHashRouter('/dashboard');
