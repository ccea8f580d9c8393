/// <reference types="vite/client" />

// For tools that read the pages' TypeScript without the Vue compiler (the linter); vue-tsc
// resolves the components themselves.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
