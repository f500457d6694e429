// undici publishes types for its index only; transport.ts imports the Pool module alone (see there).
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
